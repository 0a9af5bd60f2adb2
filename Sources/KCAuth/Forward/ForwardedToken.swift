import KCAuthContract
import KCAuthCore

/// The remote side of `ssh`: when the connection announced a forwarded socket (``ForwardRule``)
/// and that socket is a live one of the user's on this host, tokens come from the laptop over
/// it, and nothing is read from or written to this host's configuration, keyring, files or cache.
///
/// A forward that is not this host's — its socket absent or another user's, as when a second
/// hop's `SendEnv LC_*` carried the variable along — or whose socket nothing listens on any more
/// (its connection ended; the socket is removed) is ignored with one line, and this host's own
/// sessions are used. A socket of the user's that others could have replaced is refused.
public struct ForwardedToken: Sendable {
    /// The laptop may refresh over the network before it answers (libcurl's own deadlines are
    /// shorter), so the answer gets this long.
    public static let answerMilliseconds = 60_000

    /// What the announced forward is on this host, decided once per context.
    public enum Use: Sendable, Equatable {
        /// No forward, or one that is not this host's (ignored, said once).
        case none
        /// The laptop answers on this socket.
        case laptop(socket: String)
        /// A forward that may be neither used nor ignored, and why.
        case refused(KCAuthError)
    }

    let context: KCAuthContext
    let connector: any ForwardConnector

    public init(context: KCAuthContext) {
        self.context = context
        connector = context.adapters.forwardConnector()
    }

    /// The forward's use here; the first call looks at the socket (and says once why it is
    /// ignored, if it is).
    public var use: Use { context.forwardUse.value(decide) }

    /// A forward is in force: the laptop answers (or its refusal is the answer), this host's
    /// sessions are not used.
    public var announced: Bool { use != .none }

    func decide() -> Use {
        let environment = context.environment
        guard ForwardRule.announced({ environment[$0] }) else { return .none }
        guard let path = ForwardRule.socket({ environment[$0] }) else {
            return .refused(KCAuthError(.configuration, "\(ForwardRule.variable) does not name an absolute socket path",
                                        hint: "unset it to use this host's own sessions"))
        }
        let ignoring = "ignoring \(ForwardRule.variable)=\(Sanitize.oneLine(path, limit: 200)): "
        switch connector.inspect(path: path) {
        case .live:
            return .laptop(socket: path)
        case .absent:
            context.adapters.warn(ignoring + "no such socket on this host (the variable came from another host?); "
                                  + "using this host's own sessions")
        case .notYours(let uid):
            context.adapters.warn(ignoring + "the socket is not yours (uid \(uid)); using this host's own sessions")
        case .dead:
            connector.removeDead(path: path)
            context.adapters.warn(ignoring + "its ssh connection has ended (nothing answers there; removed); "
                                  + "using this host's own sessions")
        case .unsafe(let why):
            return .refused(KCAuthError(.configuration, "the forwarded session is refused: \(why)",
                                        remedy: .reconnectForward(variable: ForwardRule.variable)))
        }
        return .none
    }

    /// The laptop's token for `profile` (nil: the forward's first).
    public func token(profile: String?, minValid: Double, idToken: Bool) throws -> (profile: String, token: IssuedToken) {
        try ForwardMessage.parseAnswer(ask(ForwardMessage.Request(profile: profile, minValid: minValid, idToken: idToken)))
    }

    /// What the forward is: the laptop's destination, the profiles it lends, its scope.
    public func describe() throws -> ForwardDescription {
        try ForwardDescription(answer: ask(.describing))
    }

    /// For the git and docker helpers: the laptop's token for `host`, with the user name of the
    /// profile that lists it; nil when no forwarded profile does.
    public func helperToken(picked: String?, host: CredentialHost) throws -> ForwardedHelperToken? {
        let answer = try ask(ForwardMessage.Request(profile: picked, minValid: HelperRule.minValid, idToken: false, host: host.description))
        return try ForwardMessage.parseHelperAnswer(answer).map { ForwardedHelperToken(token: $0.token, username: $0.username) }
    }

    /// The helpers' source of the laptop's tokens; nil when no forward is in force.
    var helperSource: ForwardedHelperToken.Source? {
        guard announced else { return nil }
        return { picked, host in try helperToken(picked: picked, host: host) }
    }

    func ask(_ request: ForwardMessage.Request) throws -> [UInt8] {
        let path: String
        switch use {
        case .none: throw KCAuthError(.internal, "no forwarded session to ask")
        case .refused(let error): throw error
        case .laptop(let socket): path = socket
        }
        let start = context.clock.now()
        let exchange = try connector.exchange(path: path, line: request.line, answerMilliseconds: Self.answerMilliseconds)
        // The answer holds the laptop's token: the trace says only that it came.
        context.trace.emit(TraceEvent("forward.ask", ("socket", .text(path)), ("profile", .text(request.profile ?? "(the first)")),
                                      ("answer", .text(Self.words(exchange))), ("ms", .milliseconds(context.clock.now() - start))))
        switch exchange {
        case .answer(let line):
            return line
        case .notTaken:
            var error = KCAuthError(.network, "the forwarded session did not take the request")
            error.problem = .forwardNotTaken
            throw error
        case .noAnswer:
            throw KCAuthError(.network, "the forwarded session gave no answer within \(Self.answerMilliseconds / 1000) s")
        case .closed:
            throw KCAuthError(.network, "the laptop's side of the forwarded session has ended (its kcauth was stopped?)",
                              remedy: .reconnectForward(variable: ForwardRule.variable))
        }
    }

    /// How an exchange ended, for the trace.
    static func words(_ reply: ForwardReply) -> String {
        switch reply {
        case .answer(let line): "\(line.count) bytes"
        case .notTaken: "not taken"
        case .noAnswer: "none in time"
        case .closed: "closed"
        }
    }
}
