/// What the command line said about a profile's settings, checked and typed by the command line
/// (its words for a wrong value are its own). Every field is optional: nil means "not given",
/// and the resolver looks further down.
public struct SettingsFlags: Sendable, Equatable {
    public var profile: String?
    public var issuer: String?
    /// Keycloak base URL and realm, the other spelling of the issuer.
    public var server: String?
    public var realm: String?
    public var clientID: String?
    public var scope: String?
    public var storage: StorageKind?
    public var caFile: String?
    public var flow: FlowSetting?
    public var port: UInt16?
    /// Seconds to wait for the browser.
    public var timeout: Double?
    /// Login only: sticky authorization parameters and the client's credentials (see
    /// `LoginSettingsFlags`).
    public var login = LoginSettingsFlags()
    /// The browser command given for this login (saved with it).
    public var browserCommand: BrowserCommand?
    /// An empty browser command was given: the saved one is forgotten.
    public var forgetsBrowserCommand = false
    /// The plain settings given (``SettingRow/plain``), checked by the command line, by name; an
    /// empty value forgets the saved one.
    public var texts: [String: String] = [:]

    public init(profile: String? = nil, issuer: String? = nil, server: String? = nil, realm: String? = nil, clientID: String? = nil,
                scope: String? = nil, storage: StorageKind? = nil, caFile: String? = nil, flow: FlowSetting? = nil,
                port: UInt16? = nil, timeout: Double? = nil, browserCommand: BrowserCommand? = nil) {
        self.browserCommand = browserCommand
        self.profile = profile
        self.issuer = issuer
        self.server = server
        self.realm = realm
        self.clientID = clientID
        self.scope = scope
        self.storage = storage
        self.caFile = caFile
        self.flow = flow
        self.port = port
        self.timeout = timeout
    }
}
