import KCAuthContract
import KCAuthCore

/// The remote side of `ssh`: when the connection announced a forwarded socket (``ForwardRule``),
/// tokens come from the laptop over it, and nothing is read from or written to this host's
/// configuration, keyring, files or cache.
public struct ForwardedToken: Sendable {
    /// The laptop may refresh over the network before it answers (libcurl's own deadlines are
    /// shorter), so the answer gets this long.
    public static let answerMilliseconds = 60_000

    let environment: [String: String]
    let connector: any ForwardConnector

    public init(context: KCAuthContext) {
        environment = context.environment
        connector = context.adapters.forwardConnector()
    }

    /// A forward is announced: the laptop answers, this host's sessions are not used.
    public var announced: Bool { ForwardRule.announced { environment[$0] } }

    /// The laptop's token for `profile` (nil: the forward's first).
    public func token(profile: String?, minValid: Double, idToken: Bool) throws -> (profile: String, token: IssuedToken) {
        try ForwardMessage.parseAnswer(ask(ForwardMessage.Request(profile: profile, minValid: minValid, idToken: idToken)))
    }

    /// For the git and docker helpers: the laptop's token for `host`, with the user name of the
    /// profile that lists it; nil when no forwarded profile does.
    public func helperToken(picked: String?, host: CredentialHost) throws -> ForwardedHelperToken? {
        let answer = try ask(ForwardMessage.Request(profile: picked, minValid: HelperRule.minValid, idToken: false, host: host.description))
        return try ForwardMessage.parseHelperAnswer(answer).map { ForwardedHelperToken(token: $0.token, username: $0.username) }
    }

    /// The helpers' source of the laptop's tokens; nil when no forward is announced.
    var helperSource: ForwardedHelperToken.Source? {
        guard announced else { return nil }
        return { picked, host in try helperToken(picked: picked, host: host) }
    }

    func ask(_ request: ForwardMessage.Request) throws -> [UInt8] {
        guard let path = ForwardRule.socket({ environment[$0] }) else {
            throw KCAuthError(.configuration, "\(ForwardRule.variable) does not name an absolute socket path",
                              hint: "unset it to use this host's own sessions")
        }
        if let refusal = connector.refusal(path: path) {
            throw KCAuthError(.configuration, "the forwarded session is refused: \(refusal)",
                              remedy: .reconnectForward(variable: ForwardRule.variable))
        }
        switch try connector.exchange(path: path, line: request.line, answerMilliseconds: Self.answerMilliseconds) {
        case .answer(let line):
            return line
        case .notTaken:
            var error = KCAuthError(.network, "the forwarded session did not take the request")
            error.problem = .forwardNotTaken
            throw error
        case .noAnswer:
            throw KCAuthError(.network, "the forwarded session gave no answer within \(Self.answerMilliseconds / 1000) s")
        }
    }
}
