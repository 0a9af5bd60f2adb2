import KCAuthContract

/// Resolution of the login-only settings (`LoginSettingsFlags`), with the same precedence as the
/// rest: flag > environment > saved profile > default.
extension SettingsResolver {
    /// The variables a CI job sets for a confidential client: the variable of the row that names
    /// where the secret or assertion comes from (`client_secret_env`, `client_assertion_env`).
    public static let clientSecretVariable = SettingsCatalogue.clientSecretEnv.environment!
    public static let clientAssertionVariable = SettingsCatalogue.clientAssertionEnv.environment!

    func resolveLogin(_ f: LoginSettingsFlags, saved: ProfileSettings, into resolved: inout ResolvedProfile) throws {
        // An empty option forgets the saved value.
        for parameter in StickyParameter.allCases {
            let flag = f.sticky[parameter]
            resolved.sticky[parameter] = flag == "" ? nil : try pick(flag, parameter.row, saved: saved.sticky[parameter])
        }
        resolved.clientAuth = try clientAuth(f, saved: saved)
        resolved.dpop = try dpop(f.dpop, saved: saved.dpop)
        let par = SettingsCatalogue.par.name, grant = SettingsCatalogue.grant.name
        if let mode = f.par {
            resolved.par = Setting(mode, .flag, origin: .option(par))
        } else if let saved = saved.par {
            resolved.par = Setting(saved, .profile, origin: .file(par))
        }
        if f.clientCredentials {
            resolved.grant = Setting(ProfileSettings.clientCredentialsGrant, .flag, origin: .option(grant))
        } else if let saved = saved.grant {
            resolved.grant = Setting(saved, .profile, origin: .file(grant))
        }
    }

    /// The option > `KCAUTH_DPOP` (any case) > the profile's `dpop` > no.
    private func dpop(_ flag: DPoPMode?, saved: DPoPMode?) throws -> Setting<DPoPMode> {
        let row = SettingsCatalogue.dpop
        if let flag { return Setting(flag, .flag, origin: .option(row.name)) }
        if let variable = row.environment, let raw = try environment.value(variable), !raw.isEmpty {
            guard let mode = DPoPMode(rawValue: SettingCheck.asciiLowercased(raw)) else {
                throw KCAuthError(.usage, "\(variable)='\(Sanitize.oneLine(raw))' is not \(ChoiceWords.or(ChoiceWords.words(DPoPMode.self)))")
            }
            return Setting(mode, .environment, origin: .environment(variable))
        }
        if let saved { return Setting(saved, .profile, origin: .file(row.name)) }
        return Setting(.no, .default)
    }

    /// The client's authentication, with an assertion's audience and type given in this login
    /// applied to the assertion chosen (given now, or the profile's).
    private func clientAuth(_ f: LoginSettingsFlags, saved: ProfileSettings) throws -> Setting<ClientAuthenticationSetting> {
        let chosen = try chosenClientAuth(f, saved: saved)
        guard f.clientAssertionAudience != nil || f.clientAssertionType != nil else { return chosen }
        guard case .clientAssertion(var assertion) = chosen.value else {
            throw KCAuthError(.usage, "a client assertion's audience and type go with its source: name one for this login ("
                              + ChoiceWords.or(AssertionSource.forms) + ")")
        }
        if f.clientAssertionAudience != nil, !assertion.takesAudience {
            throw KCAuthError(.usage, "an assertion read from \(PlatformAssertion(assertion.source)) comes with the audience the platform "
                              + "gave it; only \(AssertionSource.githubActionsWord) and command: sources are asked for one")
        }
        guard chosen.source == .profile else { return chosen }   // given now: made with them
        assertion.audience = f.clientAssertionAudience ?? assertion.audience
        assertion.type = f.clientAssertionType ?? assertion.type
        let row = f.clientAssertionAudience != nil ? SettingsCatalogue.clientAssertionAudience : SettingsCatalogue.clientAssertionType
        return Setting(.clientAssertion(assertion), .flag, origin: .option(row.name))
    }

    private func chosenClientAuth(_ f: LoginSettingsFlags, saved: ProfileSettings) throws -> Setting<ClientAuthenticationSetting> {
        // The command line says which of its options clash before it gets here.
        if f.clientKey == nil, f.clientKeyID != nil || f.clientKeyAlgorithm != nil {
            throw KCAuthError(.usage, "a client key id and algorithm go with a client key")
        }
        var given: [Setting<ClientAuthenticationSetting>] = []
        if let raw = f.clientSecretFile {
            let path = try absolute(Setting(raw, .flag, origin: .option(SettingsCatalogue.clientSecretFile.name))).value
            given.append(Setting(.clientSecret(ClientSecretSource(.file(path)), method: nil), .flag, origin: .option(SettingsCatalogue.clientSecretFile.name)))
        }
        if let raw = f.clientKey {
            let path = try absolute(Setting(raw, .flag, origin: .option(SettingsCatalogue.clientKey.name))).value
            if let name = f.clientKeyAlgorithm { _ = try ClientKey.algorithm(named: name) }
            given.append(Setting(.privateKey(file: path, keyID: f.clientKeyID, algorithm: f.clientKeyAlgorithm?.uppercased()),
                                 .flag, origin: .option(SettingsCatalogue.clientKey.name)))
        }
        if let raw = f.clientAssertionFile {
            let path = try absolute(Setting(raw, .flag, origin: .option(SettingsCatalogue.clientAssertionFile.name))).value
            given.append(Setting(.clientAssertion(platformAssertion(.file(path), f)), .flag,
                                 origin: .option(SettingsCatalogue.clientAssertionFile.name)))
        }
        if var source = f.clientAssertionFrom {
            let origin = SettingOrigin.option(SettingsCatalogue.clientAssertionFrom.name)
            if case .file(let raw) = source { source = .file(try absolute(Setting(raw, .flag, origin: origin)).value) }
            given.append(Setting(.clientAssertion(platformAssertion(source, f)), .flag, origin: origin))
        }
        guard given.count <= 1 else {
            throw KCAuthError(.usage, "give one client credential: \(given.compactMap(\.origin?.plainName).joined(separator: ", ")) were given together")
        }
        // Set means non-empty; the value itself is read only when a request needs it.
        let secret = environment.raw[Self.clientSecretVariable].map { !$0.isEmpty } ?? false
        let assertion = environment.raw[Self.clientAssertionVariable].map { !$0.isEmpty } ?? false
        if let flag = given.first { return flag }
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
            return Setting(.clientAssertion(platformAssertion(.environment(Self.clientAssertionVariable), f)), .environment,
                           origin: .environment(Self.clientAssertionVariable))
        case (false, false):
            break
        }
        if let remembered = saved.clientAuth { return Setting(remembered, .profile, origin: .file("client_auth")) }
        return Setting(.none, .default)
    }

    private func platformAssertion(_ source: AssertionSource, _ f: LoginSettingsFlags) -> PlatformAssertion {
        PlatformAssertion(source, audience: f.clientAssertionAudience, type: f.clientAssertionType ?? .jwtBearer)
    }
}
