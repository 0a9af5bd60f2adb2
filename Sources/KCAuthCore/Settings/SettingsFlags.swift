/// What the command line said about a profile's settings, before any interpretation. Every
/// field is optional: nil means "not given", and the resolver looks further down.
public struct SettingsFlags: Sendable, Equatable {
    public var profile: String?
    public var issuer: String?
    /// Keycloak base URL and realm, the other spelling of the issuer.
    public var server: String?
    public var realm: String?
    public var clientID: String?
    public var scope: String?
    public var storage: String?
    public var caFile: String?
    public var flow: FlowSetting?
    public var port: String?
    public var timeout: String?
    /// Issue 11: sticky authorization parameters and the client's credentials (see `LoginSettingsFlags`).
    public var login = LoginSettingsFlags()
    /// `--browser-command`; an empty string forgets the saved one.
    public var browserCommand: String?

    public init(profile: String? = nil, issuer: String? = nil, server: String? = nil, realm: String? = nil, clientID: String? = nil,
                scope: String? = nil, storage: String? = nil, caFile: String? = nil, flow: FlowSetting? = nil,
                port: String? = nil, timeout: String? = nil, browserCommand: String? = nil) {
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
