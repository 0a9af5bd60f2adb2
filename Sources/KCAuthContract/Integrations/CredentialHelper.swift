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
/// The front reads the rows on every helper call, so a row is a plain value — static strings,
/// bits, no array — and the table is reached row by row (``row(_:)``): an array of a type of its
/// own, or an optional row holding reference-counted strings, costs the front a run-time
/// metadata instantiation (demangling included) on first use, ≈40,000 instructions each
/// (docs/performance.md §4). A plain `kcauth` never touches the table.
public struct CredentialHelper: Sendable, Equatable {
    /// A helper protocol's action: the word the tool passes as the first argument.
    public enum Action: String, Sendable, CaseIterable {
        case get, list, store, erase

        /// The action a word names, compared as literals (no table behind it).
        public static func named(_ word: String) -> Action? {
            switch word {
            case "get": return .get
            case "list": return .list
            case "store": return .store
            case "erase": return .erase
            default: return nil
            }
        }
    }

    /// A set of actions, as bits.
    public struct Actions: OptionSet, Sendable, Equatable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let get = Actions(rawValue: 1 << 0)
        public static let list = Actions(rawValue: 1 << 1)
        public static let store = Actions(rawValue: 1 << 2)
        public static let erase = Actions(rawValue: 1 << 3)

        public init(_ action: Action) {
            switch action {
            case .get: self = .get
            case .list: self = .list
            case .store: self = .store
            case .erase: self = .erase
            }
        }

        public func contains(_ action: Action) -> Bool { contains(Actions(action)) }
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

    let toolName: StaticString
    let programName: StaticString
    let commandName: StaticString
    public let wire: Wire
    /// The protocol's actions.
    public let protocolActions: Actions
    /// The actions the front answers itself when the token is warm; every other action, and a
    /// request it cannot answer, is the full program's.
    public let warm: Actions
    /// An action the protocol does not have is ignored (git may grow new actions, and a helper
    /// ignores the ones it does not know) rather than refused.
    public let ignoresUnknownActions: Bool

    public static let git = CredentialHelper(toolName: "git", programName: "git-credential-kcauth", commandName: "git-credential",
                                             wire: .git, protocolActions: [.get, .store, .erase], warm: .get, ignoresUnknownActions: true)
    public static let docker = CredentialHelper(toolName: "docker", programName: "docker-credential-kcauth",
                                                commandName: "docker-credential", wire: .docker,
                                                protocolActions: [.get, .list, .store, .erase], warm: .get, ignoresUnknownActions: false)

    /// The tool that runs the helper (`git`).
    public var tool: String { toolName.description }
    /// The name the tool runs (`git-credential-kcauth`).
    public var program: String { programName.description }
    /// The kcauth command the program name stands for (`git-credential`).
    public var command: String { commandName.description }

    public static func == (a: CredentialHelper, b: CredentialHelper) -> Bool {
        same(a.programName, b.program) && same(a.commandName, b.command) && same(a.toolName, b.tool) && a.wire == b.wire
            && a.protocolActions == b.protocolActions && a.warm == b.warm && a.ignoresUnknownActions == b.ignoresUnknownActions
    }

    /// A static string and a string, compared as bytes.
    static func same(_ literal: StaticString, _ text: String) -> Bool {
        var copy = text
        return literal.withUTF8Buffer { a in
            copy.withUTF8 { b in
                guard a.count == b.count else { return false }
                var i = 0
                while i < a.count { if a[i] != b[i] { return false }; i += 1 }
                return true
            }
        }
    }

    /// The table, row by row; nil past the last row.
    public static func row(_ index: Int) -> CredentialHelper? {
        switch index {
        case 0: return git
        case 1: return docker
        default: return nil
        }
    }

    /// Every row, in order (for the man page, the completions and tests; the front goes by ``row(_:)``).
    public static var all: [CredentialHelper] {
        var rows: [CredentialHelper] = []
        while let next = row(rows.count) { rows.append(next) }
        return rows
    }

    /// The helper a program name (the last part of argv[0]) stands for.
    public static func named(program name: String) -> CredentialHelper? {
        var i = 0
        while let helper = row(i) {
            if same(helper.programName, name) { return helper }
            i += 1
        }
        return nil
    }

    /// The helper a kcauth command name stands for.
    public static func named(command name: String) -> CredentialHelper? {
        var i = 0
        while let helper = row(i) {
            if same(helper.commandName, name) { return helper }
            i += 1
        }
        return nil
    }

    /// The protocol's actions, in the order the usage line lists them (get, list, store, erase).
    public var actions: [Action] { Action.allCases.filter(protocolActions.contains) }

    /// The actions the front serves warm, in the same order.
    public var warmActions: [Action] { Action.allCases.filter(warm.contains) }

    /// The actions as words (`get`, `store`, `erase`).
    public var actionWords: [String] { actions.map(\.rawValue) }

    /// The action `word` names, if this helper's protocol has it.
    public func action(_ word: String) -> Action? {
        Action.named(word).flatMap { protocolActions.contains($0) ? $0 : nil }
    }

    /// Whether the front answers `word` itself when the token is warm.
    public func servesWarm(_ word: String) -> Bool {
        Action.named(word).map(warm.contains) ?? false
    }
}
