/// What a forward is, as the laptop says it (``ForwardMessage/Request/describing``): where the
/// laptop connected to, which of its profiles it lends, and the narrower scope, if any. The
/// remote `status` and `whoami` show it, so that a person on the remote host can tell whose
/// tokens they get.
public struct ForwardDescription: Sendable, Equatable {
    /// The destination the laptop gave ssh (`"plain ssh"` for `forward-agent`).
    public var destination: String
    /// The profiles lent; the first answers a request that names none.
    public var profiles: [String]
    public var scope: String?

    public init(destination: String, profiles: [String], scope: String?) {
        self.destination = destination
        self.profiles = profiles
        self.scope = scope
    }

    /// The answer line.
    public var line: String {
        JSONValue.fields([("destination", .string(destination)), ("profiles", .strings(profiles)), ("scope", .string(scope))]).compact
    }

    /// The laptop's answer read back; its error when it refused (a laptop too old to describe
    /// a forward answers "unreadable request").
    public init(answer bytes: [UInt8]) throws {
        guard let json = JSONValue.parse(bytes), json.members != nil else {
            throw KCAuthError(.invalidResponse, "the forwarded session gave an answer kcauth cannot read")
        }
        if json["error"]?.stringValue != nil {
            let message = json["message"]?.stringValue.map { Sanitize.oneLine($0, limit: 300) } ?? "the laptop refused"
            throw KCAuthError(.invalidResponse, "on the laptop: \(message) (is its kcauth older than this one?)")
        }
        guard let destination = json["destination"]?.stringValue,
              let profiles = json["profiles"]?.arrayValue?.compactMap(\.stringValue), !profiles.isEmpty else {
            throw KCAuthError(.invalidResponse, "the forwarded session did not say what it is (is the laptop's kcauth older than this one?)")
        }
        self.destination = Sanitize.oneLine(destination, limit: 200)
        self.profiles = profiles.map { Sanitize.oneLine($0, limit: 80) }
        scope = json["scope"]?.stringValue.map { Sanitize.oneLine($0, limit: 500) }
    }
}
