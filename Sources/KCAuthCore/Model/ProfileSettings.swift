import KCAuthContract

/// The non-secret settings of one profile, as kept in the configuration file: the text of each
/// key of the settings catalogue (``SettingsCatalogue/profileRows``), read and written by
/// looping over the rows, with typed accessors (``SettingKey``) for the code that uses them.
public struct ProfileSettings: Sendable, Equatable {
    /// The profile's text of each catalogue key, as the file says it (absent: unset).
    public private(set) var texts: [String: String] = [:]

    public init() {}

    public init(issuer: String? = nil, clientID: String? = nil, scope: String? = nil, port: UInt16? = nil, caFile: String? = nil,
                storage: StorageKind? = nil, flow: LoginFlow? = nil,
                browserCommand: String? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.scope = scope
        self.port = port
        self.caFile = caFile
        self.storage = storage
        self.flow = flow
        self.browserCommand = browserCommand
    }

    /// The profile's section of `doc`, every value checked by its row (``check(profile:path:doc:)``).
    public init(_ doc: ConfigDocument, profile: String, path: String) throws {
        for row in SettingsCatalogue.profileRows {
            if let key = row.key, let value = doc.value(key, profile: profile) { texts[key] = value }
        }
        try check(profile: profile, path: path, doc: doc)
    }

    /// Sets (nil: removes) every key `login` writes, in the catalogue's order; the keys a person
    /// writes by hand (`hosts`, `username`) and the ones it never writes stay as they are.
    public func apply(to doc: inout ConfigDocument, profile: String) {
        for row in SettingsCatalogue.profileRows where row.writtenByLogin {
            doc.set(row.key!, texts[row.key!], profile: profile)
        }
    }

    /// A typed value: nil when unset (or when its text is the default's, for a key that has one).
    public subscript<Value>(key: SettingKey<Value>) -> Value? {
        get { texts[key.row.key!].flatMap(key.decode) }
        set { texts[key.row.key!] = newValue.flatMap(key.encode) }
    }

    /// A setting's text as the file says it; nil when unset or not a profile key.
    public func text(_ row: SettingRow) -> String? { row.key.flatMap { texts[$0] } }

    /// Sets (nil: removes) a profile key's text.
    public mutating func setText(_ text: String?, for row: SettingRow) {
        guard let key = row.key else { return }
        texts[key] = text
    }
}

/// The typed settings, each over its catalogue row.
extension ProfileSettings {
    public var issuer: String? { get { self[Keys.issuer] } set { self[Keys.issuer] = newValue } }
    public var clientID: String? { get { self[Keys.clientID] } set { self[Keys.clientID] = newValue } }
    public var scope: String? { get { self[Keys.scope] } set { self[Keys.scope] = newValue } }
    public var port: UInt16? { get { self[Keys.port] } set { self[Keys.port] = newValue } }
    /// PEM file of extra CA certificates to trust for the provider (a private or corporate CA).
    public var caFile: String? { get { self[Keys.caFile] } set { self[Keys.caFile] = newValue } }
    /// Where the session is kept (`keyring`, `encrypted` or `file`); nil means the keyring. Sticky:
    /// set by a login's `storage` setting, read by every later command of the profile.
    public var storage: StorageKind? { get { self[Keys.storage] } set { self[Keys.storage] = newValue } }
    /// The login flow the user forced (`flow`); nil lets kcauth choose.
    public var flow: LoginFlow? {
        get { self[Keys.flow]?.flow }
        set { self[Keys.flow] = newValue.map { $0 == .browser ? .browser : .device } }
    }
    /// `browser_command`, as written (split by `BrowserCommand` when used).
    public var browserCommand: String? { get { self[Keys.browserCommand] } set { self[Keys.browserCommand] = newValue } }
    /// The servers the git and docker credential helpers answer for with this profile's token
    /// (`hosts = git.example.com registry.example.com:5000`).
    public var hosts: [CredentialHost]? { (try? IntegrationSettings.hosts(text(SettingsCatalogue.hosts), where: "")) ?? nil }
    /// The user name handed to git and docker with the token (default `oauth2`).
    public var username: String? { (try? IntegrationSettings.username(text(SettingsCatalogue.username), where: "")) ?? nil }
    /// Authorization request parameters remembered per profile (``StickyParameter``); a value is never empty.
    public var sticky: [StickyParameter: String] {
        get {
            var values: [StickyParameter: String] = [:]
            for parameter in StickyParameter.allCases { values[parameter] = self[SettingKey.nonEmpty(parameter.row)] }
            return values
        }
        set { for parameter in StickyParameter.allCases { self[SettingKey.nonEmpty(parameter.row)] = newValue[parameter] } }
    }
    /// How the client authenticates (where its secret, key or assertion comes from); nil: public.
    public var clientAuth: ClientAuthenticationSetting? {
        get { (try? ClientAuthenticationSetting.read(text: { texts[$0] }, where: "")) ?? nil }
        set { (newValue ?? .none).apply { row, text in setText(text, for: row) } }
    }
    /// `client_credentials` for a profile that signs in as the client itself (no person).
    public var grant: String? { get { self[Keys.grant] } set { self[Keys.grant] = newValue } }
    /// DPoP-bound sessions (RFC 9449) and pushed authorization requests (RFC 9126); nil: `no` and `auto`.
    public var dpop: DPoPMode? { get { self[Keys.dpop] } set { self[Keys.dpop] = newValue } }
    public var par: PARMode? { get { self[Keys.par] } set { self[Keys.par] = newValue } }

    public static let clientCredentialsGrant = SettingCheck.clientCredentialsGrant

    /// The typed keys, one per catalogue row the code reads typed.
    enum Keys {
        static let issuer = SettingKey<String>(SettingsCatalogue.issuer)
        static let clientID = SettingKey<String>(SettingsCatalogue.clientID)
        static let scope = SettingKey<String>(SettingsCatalogue.scope)
        static let caFile = SettingKey<String>(SettingsCatalogue.caFile)
        static let port = SettingKey<UInt16>(SettingsCatalogue.port, decode: { UInt16($0) }, encode: { String($0) })
        static let storage = SettingKey<StorageKind>(SettingsCatalogue.storage)
        static let flow = SettingKey<FlowSetting>(SettingsCatalogue.flow, unset: .auto)
        static let browserCommand = SettingKey<String>.nonEmpty(SettingsCatalogue.browserCommand)
        static let grant = SettingKey<String>.nonEmpty(SettingsCatalogue.grant)
        static let dpop = SettingKey<DPoPMode>(SettingsCatalogue.dpop, unset: .no)
        static let par = SettingKey<PARMode>(SettingsCatalogue.par, unset: .auto)
    }
}
