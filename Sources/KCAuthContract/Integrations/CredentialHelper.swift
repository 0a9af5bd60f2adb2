/// A credential helper kcauth answers as. git and docker find a helper by its program name:
/// `credential.helper = kcauth` runs `git-credential-kcauth`, `"credHelpers": {…: "kcauth"}`
/// runs `docker-credential-kcauth`. kcauth installed under that name (a symbolic link) is the
/// row's `command`, and speaks the row's wire protocol.
///
/// One row per helper, read by everything that names one: the full program's parser
/// (`ProgramName`), the front (`FrontDispatch`, `FrontCredentialHelpers`: which actions it
/// answers from a warm cache), the helpers' commands (their usage and action words), the man
/// page and the completions; `make install` and the Debian package link these program names,
/// and tests hold them to the table.
///
/// The front reads it too: no dictionary or set, index loops only (docs/performance.md §4), and
/// a plain `kcauth` never touches the table.
public struct CredentialHelper: Sendable, Equatable {
    /// A helper protocol's action: the word the tool passes as the first argument.
    public enum Action: String, Sendable, CaseIterable {
        case get, list, store, erase
    }

    /// What the tool writes to the helper's standard input and reads from its output.
    public enum Wire: Sendable, Equatable {
        /// git-credential(1), gitcredentials(7): `key=value` lines up to a blank line, answered
        /// with `key=value` lines (``GitCredentialLines``).
        case git
        /// github.com/docker/docker-credential-helpers: a server URL, answered with a JSON
        /// object, or with docker's "not found" text and status 1 (``DockerCredentialJSON``).
        case docker

        /// The most standard input a helper reads: git limits a line to 65535 bytes and sends a
        /// few; docker sends one server URL. More is not from the tool, and is refused.
        public var inputLimit: Int {
            switch self {
            case .git: return 256 * 1024
            case .docker: return 64 * 1024
            }
        }

        /// git ends its request with a blank line and may keep the pipe open: the helper stops
        /// reading there, and never waits for an end git does not send.
        public var endsAtBlankLine: Bool { self == .git }
    }

    /// The tool that runs the helper (`git`).
    public let tool: String
    /// The name the tool runs (`git-credential-kcauth`).
    public let program: String
    /// The kcauth command the program name stands for (`git-credential`).
    public let command: String
    public let wire: Wire
    /// The protocol's actions, in the order the usage line lists them.
    public let actions: [Action]
    /// The actions the front answers itself when the token is warm; every other action, and a
    /// request it cannot answer, is the full program's.
    public let warmActions: [Action]
    /// An action the protocol does not have is ignored (git may grow new actions, and a helper
    /// ignores the ones it does not know) rather than refused.
    public let ignoresUnknownActions: Bool

    public static let git = CredentialHelper(tool: "git", program: "git-credential-kcauth", command: "git-credential", wire: .git,
                                             actions: [.get, .store, .erase], warmActions: [.get], ignoresUnknownActions: true)
    public static let docker = CredentialHelper(tool: "docker", program: "docker-credential-kcauth", command: "docker-credential", wire: .docker,
                                                actions: [.get, .list, .store, .erase], warmActions: [.get], ignoresUnknownActions: false)

    /// The table.
    public static let all: [CredentialHelper] = [git, docker]

    /// The helper a program name (the last part of argv[0]) stands for.
    public static func named(program name: String) -> CredentialHelper? {
        var i = 0
        while i < all.count {
            if all[i].program == name { return all[i] }
            i += 1
        }
        return nil
    }

    /// The helper a kcauth command name stands for.
    public static func named(command name: String) -> CredentialHelper? {
        var i = 0
        while i < all.count {
            if all[i].command == name { return all[i] }
            i += 1
        }
        return nil
    }

    /// The action `word` names, if this helper's protocol has it.
    public func action(_ word: String) -> Action? {
        var i = 0
        while i < actions.count {
            if actions[i].rawValue == word { return actions[i] }
            i += 1
        }
        return nil
    }

    /// Whether the front answers `word` itself when the token is warm.
    public func servesWarm(_ word: String) -> Bool {
        var i = 0
        while i < warmActions.count {
            if warmActions[i].rawValue == word { return true }
            i += 1
        }
        return false
    }

    /// The actions as words (`get`, `store`, `erase`).
    public var actionWords: [String] { actions.map(\.rawValue) }
}
