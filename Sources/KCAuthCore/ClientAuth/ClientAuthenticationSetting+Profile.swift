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
    /// Its keys, in the catalogue's order.
    static let rows = [SettingsCatalogue.clientSecretEnv, SettingsCatalogue.clientSecretFile, SettingsCatalogue.clientAuthMethod,
                       SettingsCatalogue.clientKey, SettingsCatalogue.clientKeyID, SettingsCatalogue.clientKeyAlgorithm,
                       SettingsCatalogue.clientAssertionEnv, SettingsCatalogue.clientAssertionFile]

    /// The profile's setting; nil when it names none (a public client). At most one kind of
    /// credential: two would leave the choice to chance.
    public static func read(_ doc: ConfigDocument, profile: String, path: String) throws -> ClientAuthenticationSetting? {
        try read(text: { doc.value($0, profile: profile) }, where: "\(path): profile [\(profile)]")
    }

    /// The same over a profile's texts by key; `place` begins an error's message.
    static func read(text: (String) -> String?, where place: String) throws -> ClientAuthenticationSetting? {
        func value(_ row: SettingRow) -> String? { text(row.key!).flatMap { $0.isEmpty ? nil : $0 } }
        func bad(_ what: String) -> KCAuthError { KCAuthError(.configuration, "\(place): \(what)") }
        var found: [ClientAuthenticationSetting] = []
        let method: ClientSecretMethod?
        if let raw = value(SettingsCatalogue.clientAuthMethod) {
            guard let m = ClientSecretMethod(rawValue: raw) else {
                throw bad("\(SettingsCatalogue.clientAuthMethod.key!) '\(Sanitize.oneLine(raw))' is not "
                          + ChoiceWords.or(ChoiceWords.words(ClientSecretMethod.self)))
            }
            method = m
        } else {
            method = nil
        }
        if let name = value(SettingsCatalogue.clientSecretEnv) { found.append(.clientSecret(ClientSecretSource(.environment(name)), method: method)) }
        if let file = value(SettingsCatalogue.clientSecretFile) { found.append(.clientSecret(ClientSecretSource(.file(file)), method: method)) }
        if let file = value(SettingsCatalogue.clientKey) {
            found.append(.privateKey(file: file, keyID: value(SettingsCatalogue.clientKeyID), algorithm: value(SettingsCatalogue.clientKeyAlgorithm)))
        }
        if let name = value(SettingsCatalogue.clientAssertionEnv) { found.append(.clientAssertion(.environment(name))) }
        if let file = value(SettingsCatalogue.clientAssertionFile) { found.append(.clientAssertion(.file(file))) }
        guard found.count <= 1 else {
            throw bad("it names more than one client credential (a secret, a key, an assertion): keep one")
        }
        return found.first
    }

    /// This setting's keys (`set` each of ``rows``: a value, or nil to remove it).
    func apply(_ set: (SettingRow, String?) -> Void) {
        var values: [String: String] = [:]
        switch self {
        case .none:
            break
        case .clientSecret(let source, let method):
            switch source.source {
            case .environment(let name): values[SettingsCatalogue.clientSecretEnv.key!] = name
            case .file(let path): values[SettingsCatalogue.clientSecretFile.key!] = path
            }
            values[SettingsCatalogue.clientAuthMethod.key!] = method?.rawValue
        case .privateKey(let file, let keyID, let algorithm):
            values[SettingsCatalogue.clientKey.key!] = file
            values[SettingsCatalogue.clientKeyID.key!] = keyID
            values[SettingsCatalogue.clientKeyAlgorithm.key!] = algorithm
        case .clientAssertion(let source):
            switch source {
            case .environment(let name): values[SettingsCatalogue.clientAssertionEnv.key!] = name
            case .file(let path): values[SettingsCatalogue.clientAssertionFile.key!] = path
            }
        }
        for row in Self.rows { set(row, values[row.key!]) }
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
