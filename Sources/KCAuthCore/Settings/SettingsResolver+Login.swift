import KCAuthContract

/// Resolution of the login-only settings (`LoginSettingsFlags`), with the same precedence as the
/// rest: flag > environment > saved profile > default.
extension SettingsResolver {
    /// The variables a CI job sets for a confidential client (never argv).
    public static let clientSecretVariable = "KCAUTH_CLIENT_SECRET"
    public static let clientAssertionVariable = "KCAUTH_CLIENT_ASSERTION"

    func resolveLogin(_ f: LoginSettingsFlags, saved: ProfileSettings, into resolved: inout ResolvedProfile) throws {
        // An empty option forgets the saved value.
        for parameter in StickyParameter.allCases {
            let flag = f.sticky[parameter]
            resolved.sticky[parameter] = flag == "" ? nil : try pick(flag, env: nil, saved: saved.sticky[parameter], key: parameter.key)
        }
        resolved.clientAuth = try clientAuth(f, saved: saved)
        resolved.dpop = try dpop(f.dpop, saved: saved.dpop)
        if let mode = f.par {
            resolved.par = Setting(mode, .flag, origin: .option("par"))
        } else if let saved = saved.par {
            resolved.par = Setting(saved, .profile, origin: .file("par"))
        }
        if f.clientCredentials {
            resolved.grant = Setting(ProfileSettings.clientCredentialsGrant, .flag, origin: .option("grant"))
        } else if let grant = saved.grant {
            resolved.grant = Setting(grant, .profile, origin: .file("grant"))
        }
    }

    /// The option > `KCAUTH_DPOP` (any case) > the profile's `dpop` > no.
    private func dpop(_ flag: DPoPMode?, saved: DPoPMode?) throws -> Setting<DPoPMode> {
        if let flag { return Setting(flag, .flag, origin: .option("dpop")) }
        if let raw = try environment.value("KCAUTH_DPOP"), !raw.isEmpty {
            guard let mode = DPoPMode(rawValue: SettingCheck.asciiLowercased(raw)) else {
                throw KCAuthError(.usage, "KCAUTH_DPOP='\(Sanitize.oneLine(raw))' is not no, yes or refresh-only")
            }
            return Setting(mode, .environment, origin: .environment("KCAUTH_DPOP"))
        }
        if let saved { return Setting(saved, .profile, origin: .file("dpop")) }
        return Setting(.no, .default)
    }

    private func clientAuth(_ f: LoginSettingsFlags, saved: ProfileSettings) throws -> Setting<ClientAuthenticationSetting> {
        // The command line says which of its options clash before it gets here.
        if f.clientKey == nil, f.clientKeyID != nil || f.clientKeyAlgorithm != nil {
            throw KCAuthError(.usage, "a client key id and algorithm go with a client key")
        }
        var given: [Setting<ClientAuthenticationSetting>] = []
        if let raw = f.clientSecretFile {
            let path = try absolute(Setting(raw, .flag, origin: .option("client_secret_file"))).value
            given.append(Setting(.clientSecret(ClientSecretSource(.file(path)), method: nil), .flag, origin: .option("client_secret_file")))
        }
        if let raw = f.clientKey {
            let path = try absolute(Setting(raw, .flag, origin: .option("client_key"))).value
            if let name = f.clientKeyAlgorithm { _ = try ClientKey.algorithm(named: name) }
            given.append(Setting(.privateKey(file: path, keyID: f.clientKeyID, algorithm: f.clientKeyAlgorithm?.uppercased()),
                                 .flag, origin: .option("client_key")))
        }
        if let raw = f.clientAssertionFile {
            let path = try absolute(Setting(raw, .flag, origin: .option("client_assertion_file"))).value
            given.append(Setting(.clientAssertion(.file(path)), .flag, origin: .option("client_assertion_file")))
        }
        guard given.count <= 1 else {
            throw KCAuthError(.usage, "give one client credential: \(given.compactMap(\.origin?.plainName).joined(separator: ", ")) were given together")
        }
        if let flag = given.first { return flag }
        // Set means non-empty; the value itself is read only when a request needs it.
        let secret = environment.raw[Self.clientSecretVariable].map { !$0.isEmpty } ?? false
        let assertion = environment.raw[Self.clientAssertionVariable].map { !$0.isEmpty } ?? false
        switch (secret, assertion) {
        case (true, true):
            throw KCAuthError(.usage, "both \(Self.clientSecretVariable) and \(Self.clientAssertionVariable) are set", hint: "unset one of them")
        case (true, false):
            // The method pinned at login still applies when the profile's secret came from here.
            var method: ClientSecretMethod?
            if case .clientSecret(let source, let pinned)? = saved.clientAuth, source.source == .environment(Self.clientSecretVariable) {
                method = pinned
            }
            return Setting(.clientSecret(ClientSecretSource(.environment(Self.clientSecretVariable)), method: method),
                           .environment, origin: .environment(Self.clientSecretVariable))
        case (false, true):
            return Setting(.clientAssertion(.environment(Self.clientAssertionVariable)), .environment, origin: .environment(Self.clientAssertionVariable))
        case (false, false):
            break
        }
        if let remembered = saved.clientAuth { return Setting(remembered, .profile, origin: .file("client_auth")) }
        return Setting(.none, .default)
    }
}
