/// The one request and one answer that cross a forwarded session (`kcauth ssh`), each a line of
/// JSON. The answer carries an access token (and an ID token when asked) and nothing else a
/// session holds: it is built from ``IssuedToken``, which has no refresh token and no client
/// credential, so neither can cross by mistake.
public enum ForwardMessage {
    public struct Request: Sendable, Equatable {
        /// nil: the forward's first profile (what `kcauth ssh` would use).
        public var profile: String?
        public var minValid: Double
        public var idToken: Bool
        /// A credential helper's server (`host` or `host:port`): the laptop picks the forwarded
        /// profile whose `hosts` lists it (``HelperRule``), or answers ``notServed``.
        public var host: String?
        /// No token: the forward itself is described (``ForwardDescription``), for the remote
        /// `status` and `whoami`. Sent without `min_valid`, so that a laptop too old to describe
        /// refuses it as unreadable rather than handing out a token.
        public var describe: Bool

        public init(profile: String?, minValid: Double, idToken: Bool, host: String? = nil) {
            self.profile = profile
            self.minValid = minValid
            self.idToken = idToken
            self.host = host
            describe = false
        }

        /// The request for the forward's description.
        public static let describing = Request(describing: ())

        private init(describing: Void) {
            self.init(profile: nil, minValid: 0, idToken: false)
            describe = true
        }

        public var line: String {
            if describe { return JSONValue.fields([("describe", .bool(true))]).compact }
            return JSONValue.fields([("profile", .string(profile)), ("min_valid", .number(minValid)), ("id_token", .bool(idToken)),
                                     ("host", .string(host))]).compact
        }

        public init?(line bytes: [UInt8]) {
            guard let json = JSONValue.parse(bytes), json.members != nil else { return nil }
            if case .bool(true)? = json["describe"] {
                self = .describing
                return
            }
            describe = false
            profile = json["profile"]?.stringValue
            if case .number(let n)? = json["min_valid"], n >= 0, n <= 86_400 { minValid = n } else { return nil }
            if case .bool(let b)? = json["id_token"] { idToken = b } else { idToken = false }
            host = json["host"]?.stringValue
        }
    }

    /// The answer to a helper whose server no forwarded profile lists: no token, and the helper
    /// gives its tool no answer (as when no local profile lists it).
    public static let notServed = JSONValue.fields([("not_served", .bool(true))]).compact

    /// The answer line for a token: the fields a presenter needs, by name (`username`: a
    /// credential helper's, from the profile's setting). The forward's socket is the tokens' wire.
    public static func answer(_ token: IssuedToken, profile: String, idToken: Bool, username: String? = nil) -> String {
        var fields: [(String, JSONValue)] = [
            ("profile", .string(profile)),
            ("username", .string(username)),
            ("access_token", .string(token.accessToken.reveal())),
            ("token_type", .string(token.tokenType)),
            ("expires_at", .number(token.expiresAt?.epochSeconds)),
            ("scope", .string(token.scope)),
            ("issuer", .string(token.issuer)),
            ("client_id", .string(token.clientID)),
        ]
        if idToken {
            fields.append(("id_token", .string(token.idToken?.reveal())))
            fields.append(("id_token_expires_at", .number(token.idTokenExpiresAt?.epochSeconds)))
        }
        return JSONValue.fields(fields).compact
    }

    /// The answer line for a failure: its code, one line for a person, and the profile.
    public static func failure(_ error: KCAuthError, profile: String?) -> String {
        JSONValue.fields([("error", .string(error.code.rawValue)), ("message", .string(error.message)),
                          ("profile", .string(profile))]).compact
    }

    /// What the remote side makes of an answer line: the profile and the token, or the
    /// laptop's error (a sign-in needed there is said to be needed *on the laptop*).
    public static func parseAnswer(_ bytes: [UInt8]) throws -> (profile: String, token: IssuedToken) {
        guard let answer = try parseHelperAnswer(bytes) else {
            throw KCAuthError(.configuration, "no forwarded profile serves this request")
        }
        return (answer.profile, answer.token)
    }

    /// As ``parseAnswer(_:)``, with the helper's user name; nil for ``notServed``.
    public static func parseHelperAnswer(_ bytes: [UInt8]) throws -> (profile: String, token: IssuedToken, username: String?)? {
        guard let json = JSONValue.parse(bytes), json.members != nil else {
            throw KCAuthError(.invalidResponse, "the forwarded session gave an answer kcauth cannot read")
        }
        if case .bool(true)? = json["not_served"] { return nil }
        let profile = json["profile"]?.stringValue ?? "default"
        if let code = json["error"]?.stringValue {
            let message = json["message"]?.stringValue.map { Sanitize.oneLine($0, limit: 300) } ?? "the laptop refused"
            // A code this kcauth does not know (a newer laptop) is an internal error here.
            let sent = KCAuthError.Code(rawValue: code)
            let known = KCAuthError.Code.known.contains(sent) ? sent : .internal
            if known == .loginRequired {
                throw KCAuthError(.loginRequired, "on the laptop: \(message)", remedy: .signInOnLaptop(profile: profile))
            }
            throw KCAuthError(known, "on the laptop: \(message)")
        }
        guard let access = json["access_token"]?.stringValue, !access.isEmpty else {
            throw KCAuthError(.invalidResponse, "the forwarded session gave no access token")
        }
        func instant(_ key: String) -> Instant? {
            if case .number(let n)? = json[key] { return Instant(epochSeconds: n) }
            return nil
        }
        var token = IssuedToken(accessToken: Secret(.accessToken, access), tokenType: json["token_type"]?.stringValue ?? "Bearer", expiresAt: instant("expires_at"),
                                scope: json["scope"]?.stringValue ?? "", issuer: json["issuer"]?.stringValue ?? "",
                                clientID: json["client_id"]?.stringValue ?? "")
        token.idToken = json["id_token"]?.stringValue.map { Secret(.idToken, $0) }
        token.idTokenExpiresAt = instant("id_token_expires_at")
        return (profile, token, json["username"]?.stringValue)
    }
}

extension IssuedToken {
    /// A token handed over by the laptop (``ForwardMessage``): no session behind it here.
    public init(accessToken: Secret, tokenType: String, expiresAt: Instant?, scope: String, issuer: String, clientID: String) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scope = scope
        self.issuer = issuer
        self.clientID = clientID
    }
}
