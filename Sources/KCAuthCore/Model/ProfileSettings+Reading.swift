import KCAuthContract

/// The profile reader's checks: every value of a profile section is held to its catalogue row,
/// with the words of the row's check where a person must fix the file. The front checks the
/// same rows (KCAuthContract's CacheGate), so a value refused here is never served from the
/// cache there.
extension ProfileSettings {
    /// Each message names the file, the line (``ConfigDocument/place(_:profile:key:)``) and the profile.
    func check(profile: String, path: String, doc: ConfigDocument) throws {
        for row in SettingsCatalogue.profileRows {
            guard let value = text(row) else { continue }
            try Self.check(value, of: row, place: doc.place(path, profile: profile, key: row.key))
        }
        // At most one kind of credential: two would leave the choice to chance. The line named is
        // the second credential's, where the file stops being one choice.
        let second = doc.numberedEntries(profile: profile).filter { SettingsCatalogue.credentialKeys.contains($0.key) && !$0.value.isEmpty }
            .dropFirst().first
        _ = try ClientAuthenticationSetting.read(text: { texts[$0] }, where: doc.place(path, profile: profile, key: second?.key))
        try Self.checkAgainstCatalogue(doc.numberedEntries(profile: profile), profile: profile, path: path)
    }

    /// One value, in the words of its row's check; the checks without words of their own are the
    /// catalogue's (``checkAgainstCatalogue(_:profile:path:)``). `place`: where the
    /// value is (``ConfigDocument/place(_:profile:key:)``).
    static func check(_ value: String, of row: SettingRow, place: String) throws {
        let key = row.key ?? row.name
        switch row.check {
        case .storage:
            do {
                _ = try StorageKind(parsing: value, source: "\(place): \(key)", allowed: StorageKind.persistent)
            } catch let error as KCAuthError {
                throw KCAuthError(.configuration, error.message)
            }
        case .flow:
            guard FlowSetting(rawValue: value) != nil else {
                throw KCAuthError(.configuration, "\(place): \(key) '\(Sanitize.oneLine(value))' is not \(ChoiceWords.or(ChoiceWords.words(FlowSetting.self)))")
            }
        case .hosts:
            _ = try IntegrationSettings.hosts(value, where: place)
        case .username:
            _ = try IntegrationSettings.username(value, where: place)
        case .browserCommand:
            guard !value.isEmpty else { return }
            do { _ = try BrowserCommand(value, origin: key) } catch let error as KCAuthError {
                throw KCAuthError(.configuration, "\(place): \(error.message)")
            }
        case .port:
            guard row.check.accepts(value, at: .file), UInt16(value) != nil else {
                throw KCAuthError(.configuration, "\(place): \(key) '\(Sanitize.oneLine(value))' is not a number from 0 to 65535")
            }
        case .clientAuthMethod:
            guard value.isEmpty || ClientSecretMethod(rawValue: value) != nil else {
                throw KCAuthError(.configuration, "\(place): \(key) '\(Sanitize.oneLine(value))' is not "
                                  + ChoiceWords.or(ChoiceWords.words(ClientSecretMethod.self)))
            }
        case .clientAssertionSource:
            guard row.check.accepts(value, at: .file) else {
                throw KCAuthError(.configuration, "\(place): \(key) '\(Sanitize.oneLine(value))' is not "
                                  + ChoiceWords.or(AssertionSource.forms) + " (a file's path absolute)")
            }
        case .clientAssertionType:
            guard value.isEmpty || ClientAssertionType(rawValue: value) != nil else {
                throw KCAuthError(.configuration, "\(place): \(key) '\(Sanitize.oneLine(value))' is not "
                                  + ChoiceWords.or(ChoiceWords.words(ClientAssertionType.self)))
            }
        case .grant:
            guard value.isEmpty || value == SettingCheck.clientCredentialsGrant else {
                throw KCAuthError(.configuration, "\(place): \(key) '\(Sanitize.oneLine(value))' is not \(SettingCheck.clientCredentialsGrant)")
            }
        default:
            break   // the catalogue's words (checkAgainstCatalogue)
        }
    }

    /// Every key the catalogue knows holds a value its row accepts (each line of the section, a
    /// repeated key too). The issuer is checked where it is used (a flag may override a broken one).
    static func checkAgainstCatalogue(_ entries: [ConfigDocument.Entry], profile: String, path: String) throws {
        for entry in entries {
            guard let row = SettingsCatalogue.row(key: entry.key), row.check != .issuer, !row.check.accepts(entry.value, at: .file) else { continue }
            throw KCAuthError(.configuration, "\(path):\(entry.line): profile [\(profile)]: \(entry.key) '\(Sanitize.oneLine(entry.value))' is not valid",
                              hint: "fix the file by hand; docs/configuration.md lists what each key takes")
        }
    }
}
