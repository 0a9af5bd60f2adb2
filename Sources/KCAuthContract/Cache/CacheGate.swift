/// The conditions, besides ``CachePolicy``, under which the front may answer `kcauth token` from
/// the runtime cache: every setting the full program would read for the command is one it
/// accepts without a word, and none overrides what binds the cache. Anything else is handed to
/// the full program, which then reads, refuses or refreshes exactly as it always does — so an
/// answer never depends on which program gave it.
public enum CacheGate {
    /// Whether the environment lets the front answer. `value` is the process environment.
    /// Refused (hand off): a variable that changes which session the cache must match (issuer,
    /// client, store), the cache switch itself, a value the full program would refuse, both
    /// client credentials at once, a relative CA path (resolved against the working directory),
    /// and any value the front does not read as plain printable ASCII. A forwarded session
    /// (``ForwardRule``) is always handed off: the token is the laptop's, never the cache's.
    public static func environmentAllows(_ value: (String) -> String?) -> Bool {
        // Index loops and byte tests, no `contains`/`filter`/`hasPrefix`: docs/performance.md §4.
        func set(_ name: String) -> String? { value(name).flatMap { $0.isEmpty ? nil : $0 } }
        if ForwardRule.announced(value) { return false }
        let rows = SettingsCatalogue.profileRows
        var r = 0
        // Fields read in place, not a copy of each row (a copy retains every text of the row).
        let caFile = SettingsCatalogue.caFile.key
        while r < rows.count {
            defer { r += 1 }
            guard let name = rows[r].environment, ASCIIText.index(of: name, in: SettingsCatalogue.credentialVariables) == nil,
                  let v = set(name) else { continue }
            guard !rows[r].bindsCache, isPlain(v), rows[r].check.accepts(v, at: .environment) else { return false }
            if rows[r].key == caFile, !ASCIIText.isAbsolute(v) { return false }
        }
        let credentials = SettingsCatalogue.credentialVariables
        var given = 0, c = 0
        while c < credentials.count { if set(credentials[c]) != nil { given += 1 }; c += 1 }
        if given > 1 { return false }
        if set(SettingsCatalogue.tokenCache.environment!) != nil { return false }
        if let profile = set(SettingsCatalogue.profile.environment!), !ProfileNameRule.isValid(profile) { return false }
        return true
    }

    /// The settings of the selected profile as the cache binds them, when every value is one
    /// the full program accepts; nil otherwise. `values` are by ``SettingsCatalogue/profileRows``
    /// index, as the file gives them (nil: the key is absent).
    public static func profileBinding(_ values: [String?]) -> CachePolicy.Binding? {
        let rows = SettingsCatalogue.profileRows
        guard profileReadable(values) else { return nil }
        var issuer: String?, clientID: String?, storage = StorageKind.keyring.rawValue
        let issuerKey = SettingsCatalogue.issuer.key, clientIDKey = SettingsCatalogue.clientID.key
        let storageKey = SettingsCatalogue.storage.key, caFileKey = SettingsCatalogue.caFile.key
        var i = 0
        while i < rows.count {
            defer { i += 1 }
            guard let value = values[i] else { continue }
            let key = rows[i].key
            if key == issuerKey {
                guard case .success(let normalized) = IssuerRule.normalize(value) else { return nil }
                issuer = normalized
            } else if key == clientIDKey {
                clientID = value
            } else if key == storageKey {
                storage = value
            } else if key == caFileKey, !value.isEmpty, !ASCIIText.isAbsolute(value) {
                return nil
            }
        }
        guard let issuer, !issuer.isEmpty, let clientID, !clientID.isEmpty else { return nil }
        return CachePolicy.Binding(storage: storage, issuer: issuer, clientID: clientID)
    }

    /// Whether the full program reads a profile section with these values without a word (its
    /// profile reader: every row's check, at most one client credential). The issuer is checked
    /// where it is used (``profileBinding(_:)``): a flag may override a broken saved one.
    public static func profileReadable(_ values: [String?]) -> Bool {
        let rows = SettingsCatalogue.profileRows
        guard values.count == rows.count else { return false }
        var credentials = 0
        var i = 0
        while i < rows.count {
            defer { i += 1 }
            guard let value = values[i] else { continue }
            let check = rows[i].check
            if check != .issuer, !check.accepts(value, at: .file) { return false }
            if !value.isEmpty, let key = rows[i].key, ASCIIText.index(of: key, in: SettingsCatalogue.credentialKeys) != nil { credentials += 1 }
        }
        return credentials <= 1
    }

    static func isPlain(_ s: String) -> Bool {
        for c in s.utf8 where c < 0x20 || c >= 0x7F { return false }
        return true
    }
}
