import Glibc
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// The remote side of `kcauth ssh`: when the connection announced a forwarded socket
/// (``ForwardRule``), tokens come from the laptop over it, and nothing is read from or written to
/// this host's configuration, keyring, files or cache. With no forward, nil: kcauth works as
/// always.
enum ForwardedSession {
    /// The laptop may refresh over the network before it answers (libcurl's own deadlines are
    /// shorter), so the answer gets this long.
    static let answerMilliseconds = 60_000

    /// Commands that would sign in, end, refresh or pick a session of this host, or store one:
    /// refused while a forward is announced, which has nothing here to act on and must store
    /// nothing here. The session lives on the laptop.
    static let refusedCommands: Set<String> = ["login", "logout", "refresh", "whoami", "use", "setup-client"]

    static func check(_ command: String, _ services: Services) throws {
        guard announced(services), refusedCommands.contains(command) else { return }
        throw KCAuthError(.usage, "`kcauth \(command)` does not run in a session forwarded by `kcauth ssh`: the session is the laptop's",
                          hint: "run it on the laptop, or unset \(ForwardRule.variable) to use this host's own sessions")
    }

    static func announced(_ services: Services) -> Bool {
        ForwardRule.announced { services.environment[$0] }
    }

    /// A token from the laptop, when a forward is announced; nil otherwise.
    static func token(_ command: ParsedCommand, _ services: Services, minValid: Double, idToken: Bool) throws -> (profile: String, token: IssuedToken)? {
        guard announced(services) else { return nil }
        let named = command.value(CommandTable.profile) ?? services.environment["KCAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
        return try token(services, profile: named, minValid: minValid, idToken: idToken)
    }

    static func token(_ services: Services, profile: String?, minValid: Double, idToken: Bool) throws -> (profile: String, token: IssuedToken) {
        let answer = try ask(services, ForwardMessage.Request(profile: profile, minValid: minValid, idToken: idToken))
        return try ForwardMessage.parseAnswer(answer)
    }

    /// For the git and docker helpers: the laptop's token for `host`, with the user name of the
    /// profile that lists it; nil when no forwarded profile does.
    static func helperToken(_ services: Services, picked: String?, host: CredentialHost) throws -> (token: IssuedToken, username: String?)? {
        let answer = try ask(services, ForwardMessage.Request(profile: picked, minValid: HelperRule.minValid, idToken: false,
                                                              host: host.description))
        return try ForwardMessage.parseHelperAnswer(answer).map { ($0.token, $0.username) }
    }

    static func ask(_ services: Services, _ request: ForwardMessage.Request) throws -> [UInt8] {
        guard let path = ForwardRule.socket({ services.environment[$0] }) else {
            throw KCAuthError(.configuration, "\(ForwardRule.variable) does not name an absolute socket path",
                              hint: "unset it to use this host's own sessions")
        }
        if let refusal = ForwardSocket.refusal(path: path) {
            throw KCAuthError(.configuration, "the forwarded session is refused: \(refusal)",
                              hint: "reconnect with `kcauth ssh`, or unset \(ForwardRule.variable) to use this host's own sessions")
        }
        let fd = try ForwardSocket.connect(path: path, seconds: 10)
        defer { close(fd) }
        guard ForwardSocket.writeLine(fd, request.line, milliseconds: 10_000) else {
            throw KCAuthError(.network, "the forwarded session did not take the request (is the laptop's `kcauth ssh` still running?)")
        }
        guard let line = ForwardSocket.readLine(fd, milliseconds: answerMilliseconds) else {
            throw KCAuthError(.network, "the forwarded session gave no answer within \(answerMilliseconds / 1000) s")
        }
        return line
    }
}
