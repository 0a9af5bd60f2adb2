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
/// client_assertion_from = github-actions      # or env:NAME, file:PATH, command:PROGRAM ARG...
/// client_assertion_audience = https://sso.example.com/realms/ci
/// client_assertion_type = spiffe
/// ```
///
/// `client_assertion_env = NAME` and `client_assertion_file = PATH` are read as the older
/// spellings of `env:NAME` and `file:PATH`; `login` writes `client_assertion_from` instead.
extension ClientAuthenticationSetting {
    /// Its keys, in the catalogue's order.
    static let rows = [SettingsCatalogue.clientSecretEnv, SettingsCatalogue.clientSecretFile, SettingsCatalogue.clientAuthMethod,
                       SettingsCatalogue.clientKey, SettingsCatalogue.clientKeyID, SettingsCatalogue.clientKeyAlgorithm,
                       SettingsCatalogue.clientAssertionEnv, SettingsCatalogue.clientAssertionFile,
                       SettingsCatalogue.clientAssertionFrom, SettingsCatalogue.clientAssertionAudience,
                       SettingsCatalogue.clientAssertionType]

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
        var sources: [AssertionSource] = []
        if let name = value(SettingsCatalogue.clientAssertionEnv) { sources.append(.environment(name)) }
        if let file = value(SettingsCatalogue.clientAssertionFile) { sources.append(.file(file)) }
        if let raw = value(SettingsCatalogue.clientAssertionFrom) {
            guard case .success(let source) = AssertionSource.parse(raw) else {
                throw bad("\(SettingsCatalogue.clientAssertionFrom.key!) '\(Sanitize.oneLine(raw))' is not "
                          + ChoiceWords.or(AssertionSource.forms) + " (a file's path absolute)")
            }
            sources.append(source)
        }
        if !sources.isEmpty {
            let type: ClientAssertionType
            if let raw = value(SettingsCatalogue.clientAssertionType) {
                guard let t = ClientAssertionType(rawValue: raw) else {
                    throw bad("\(SettingsCatalogue.clientAssertionType.key!) '\(Sanitize.oneLine(raw))' is not "
                              + ChoiceWords.or(ChoiceWords.words(ClientAssertionType.self)))
                }
                type = t
            } else {
                type = .jwtBearer
            }
            let audience = value(SettingsCatalogue.clientAssertionAudience)
            for source in sources { found.append(.clientAssertion(PlatformAssertion(source, audience: audience, type: type))) }
        }
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
        case .clientAssertion(let assertion):
            // One key for every source; the older spellings go.
            values[SettingsCatalogue.clientAssertionFrom.key!] = assertion.source.text
            values[SettingsCatalogue.clientAssertionAudience.key!] = assertion.audience
            values[SettingsCatalogue.clientAssertionType.key!] = assertion.type == .jwtBearer ? nil : assertion.type.rawValue
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
    /// method is the one pinned at login, so discovery is not needed again. `issuer`: the
    /// audience a platform's assertion is asked for when the profile names none.
    public func resolveWithoutDiscovery(_ ports: CredentialPorts, issuer: String?) throws -> ClientAuthentication {
        try resolve(ports, metadata: ProviderMetadata(issuer: issuer ?? "", authorizationEndpoint: "", tokenEndpoint: "", jwksURI: ""))
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
        case .clientAssertion(let assertion): "assertion from \(assertion)"
        }
    }
}
