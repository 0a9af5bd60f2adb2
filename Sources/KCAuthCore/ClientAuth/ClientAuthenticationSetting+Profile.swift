/// How a profile's section of the configuration file records its client authentication: where
/// the credential comes from, never the credential (a secret in a
/// configuration file is one more copy to leak).
///
/// ```
/// client_secret_env = KCAUTH_CLIENT_SECRET     # or client_secret_file = /run/secrets/client
/// client_auth_method = client_secret_post      # as discovery advertised at login
/// client_key = /etc/kcauth/client.pem          # private_key_jwt
/// client_key_id = key-1
/// client_key_alg = PS256
/// client_assertion_file = /var/run/secrets/tokens/kcauth   # or client_assertion_env = NAME
/// ```
extension ClientAuthenticationSetting {
    static let keys = ["client_secret_env", "client_secret_file", "client_auth_method", "client_key", "client_key_id",
                       "client_key_alg", "client_assertion_env", "client_assertion_file"]

    /// The profile's setting; nil when it names none (a public client). At most one kind of
    /// credential: two would leave the choice to chance.
    public static func read(_ doc: ConfigDocument, profile: String, path: String) throws -> ClientAuthenticationSetting? {
        func value(_ key: String) -> String? { doc.value(key, profile: profile).flatMap { $0.isEmpty ? nil : $0 } }
        func bad(_ what: String) -> KCAuthError { KCAuthError(.configuration, "\(path): profile [\(profile)]: \(what)") }
        var found: [ClientAuthenticationSetting] = []
        let method: ClientSecretMethod?
        if let raw = value("client_auth_method") {
            guard let m = ClientSecretMethod(rawValue: raw) else {
                throw bad("client_auth_method '\(Sanitize.oneLine(raw))' is not client_secret_basic or client_secret_post")
            }
            method = m
        } else {
            method = nil
        }
        if let name = value("client_secret_env") { found.append(.clientSecret(ClientSecretSource(.environment(name)), method: method)) }
        if let file = value("client_secret_file") { found.append(.clientSecret(ClientSecretSource(.file(file)), method: method)) }
        if let file = value("client_key") {
            found.append(.privateKey(file: file, keyID: value("client_key_id"), algorithm: value("client_key_alg")))
        }
        if let name = value("client_assertion_env") { found.append(.clientAssertion(.environment(name))) }
        if let file = value("client_assertion_file") { found.append(.clientAssertion(.file(file))) }
        guard found.count <= 1 else {
            throw bad("it names more than one client credential (a secret, a key, an assertion): keep one")
        }
        return found.first
    }

    /// Writes this setting's keys and removes the others.
    func apply(to doc: inout ConfigDocument, profile: String) {
        var values: [String: String] = [:]
        switch self {
        case .none:
            break
        case .clientSecret(let source, let method):
            switch source.source {
            case .environment(let name): values["client_secret_env"] = name
            case .file(let path): values["client_secret_file"] = path
            }
            values["client_auth_method"] = method?.rawValue
        case .privateKey(let file, let keyID, let algorithm):
            values["client_key"] = file
            values["client_key_id"] = keyID
            values["client_key_alg"] = algorithm
        case .clientAssertion(let source):
            switch source {
            case .environment(let name): values["client_assertion_env"] = name
            case .file(let path): values["client_assertion_file"] = path
            }
        }
        for key in Self.keys { doc.set(key, values[key], profile: profile) }
    }

    /// The setting with the secret method discovery chose at login, so that later token
    /// requests (`kcauth token` renewing a client-credentials token, a refresh) need no
    /// discovery to send the secret the same way.
    public func pinning(_ authentication: ClientAuthentication) -> ClientAuthenticationSetting {
        guard case .clientSecret(let source, nil) = self else { return self }
        switch authentication {
        case .clientSecretBasic: return .clientSecret(source, method: .basic)
        case .clientSecretPost: return .clientSecret(source, method: .post)
        default: return self
        }
    }

    /// For a token request after login (refresh, renewing a client-credentials token): the
    /// method is the one pinned at login, so discovery is not needed again.
    public func resolveWithoutDiscovery(reader: any CredentialReader) throws -> ClientAuthentication {
        try resolve(reader: reader, metadata: ProviderMetadata(issuer: "", authorizationEndpoint: "", tokenEndpoint: "", jwksURI: ""))
    }

    public var isConfidential: Bool { self != .none }
}

extension ClientAuthenticationSetting {
    /// The OpenID Connect Core §9 method name, for `status` and `whoami`; `client_secret` for
    /// a secret whose method discovery has not chosen yet.
    public var methodName: String {
        switch self {
        case .none: "none"
        case .clientSecret(_, let method): method?.rawValue ?? "client_secret"
        case .privateKey, .clientAssertion: "private_key_jwt"
        }
    }

    /// Where the credential comes from (`$KCAUTH_CLIENT_SECRET`, `file PATH`, `key file PATH`);
    /// nil for a public client. Never the credential.
    public var sourceDescription: String? {
        switch self {
        case .none: nil
        case .clientSecret(let source, _): source.description
        case .privateKey(let file, _, _): "key file \(file)"
        case .clientAssertion(let source): "assertion from \(source)"
        }
    }
}
