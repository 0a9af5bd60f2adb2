import KCAuthContract

/// The non-secret settings of one profile, as kept in the configuration file.
public struct ProfileSettings: Sendable, Equatable {
    public var issuer: String?
    public var clientID: String?
    public var scope: String?
    public var port: UInt16?
    /// PEM file of extra CA certificates to trust for the provider (a private or corporate CA).
    public var caFile: String?
    /// Where the session is kept (`keyring` or `file`); nil means the keyring. Sticky: set by
    /// a login's `storage` setting, read by every later command of the profile.
    public var storage: StorageKind?
    /// The login flow the user forced (`flow`); nil lets kcauth choose.
    public var flow: LoginFlow?
    /// Authorization request parameters remembered per profile
    /// (`StickyParameter`); a value is never empty.
    public var sticky: [StickyParameter: String] = [:]
    /// How the client authenticates (where its secret, key or assertion comes from); nil: public.
    public var clientAuth: ClientAuthenticationSetting?
    /// `client_credentials` for a profile that signs in as the client itself (no person).
    public var grant: String?
    /// The servers the git and docker credential helpers answer for with this profile's token
    /// (`hosts = git.example.com registry.example.com:5000`).
    public var hosts: [CredentialHost]?
    /// The user name handed to git and docker with the token (default `oauth2`).
    public var username: String?
    /// `browser_command`, as written (split by `BrowserCommand` when used).
    public var browserCommand: String?
    /// Sender constraints: DPoP-bound sessions (RFC 9449) and pushed authorization requests (RFC
    /// 9126); nil: `no` and `auto`.
    public var dpop: DPoPMode?
    public var par: PARMode?

    public init(issuer: String? = nil, clientID: String? = nil, scope: String? = nil, port: UInt16? = nil, caFile: String? = nil,
                storage: StorageKind? = nil, flow: LoginFlow? = nil,
                browserCommand: String? = nil) {
        self.browserCommand = browserCommand
        self.issuer = issuer
        self.clientID = clientID
        self.scope = scope
        self.port = port
        self.caFile = caFile
        self.storage = storage
        self.flow = flow
    }

    public init(_ doc: ConfigDocument, profile: String, path: String) throws {
        issuer = doc.value("issuer", profile: profile)
        clientID = doc.value("client_id", profile: profile)
        scope = doc.value("scope", profile: profile)
        caFile = doc.value("ca_file", profile: profile)
        if let s = doc.value("storage", profile: profile) {
            do {
                storage = try StorageKind(parsing: s, source: "\(path): profile [\(profile)]: storage", allowed: StorageKind.persistent)
            } catch let error as KCAuthError {
                throw KCAuthError(.configuration, error.message)
            }
        }
        if let f = doc.value("flow", profile: profile), FlowSetting(rawValue: f) != .auto {
            guard let parsed = LoginFlow(rawValue: f) else {
                throw KCAuthError(.configuration, "\(path): profile [\(profile)]: flow '\(Sanitize.oneLine(f))' is not auto, browser or device")
            }
            flow = parsed
        }
        hosts = try IntegrationSettings.hosts(doc.value("hosts", profile: profile), where: "\(path): profile [\(profile)]")
        username = try IntegrationSettings.username(doc.value("username", profile: profile), where: "\(path): profile [\(profile)]")
        if let b = doc.value("browser_command", profile: profile), !b.isEmpty {
            do { _ = try BrowserCommand(b, origin: "browser_command") } catch let error as KCAuthError {
                throw KCAuthError(.configuration, "\(path): profile [\(profile)]: \(error.message)")
            }
            browserCommand = b
        }
        if let p = doc.value("port", profile: profile) {
            guard SettingCheck.port.accepts(p, at: .file), let n = UInt16(p) else {
                throw KCAuthError(.configuration, "\(path): profile [\(profile)]: port '\(Sanitize.oneLine(p))' is not a number from 0 to 65535")
            }
            port = n
        }
        try readRequestAndClient(doc, profile: profile, path: path)
        try Self.checkAgainstCatalogue(doc.entries(profile: profile), profile: profile, path: path)
    }

    /// Every key the catalogue knows holds a value its row accepts: the front checks the same
    /// rows (KCAuthContract's CacheGate), so a value refused here is never served from the cache
    /// there. The issuer is checked where it is used (a flag may override a broken one).
    static func checkAgainstCatalogue(_ entries: [(key: String, value: String)], profile: String, path: String) throws {
        for (key, value) in entries where key != "issuer" {
            guard let row = SettingsCatalogue.row(key: key), !row.check.accepts(value, at: .file) else { continue }
            throw KCAuthError(.configuration, "\(path): profile [\(profile)]: \(key) '\(Sanitize.oneLine(value))' is not valid",
                              hint: "fix the file by hand; docs/configuration.md lists what each key takes")
        }
    }

    public func apply(to doc: inout ConfigDocument, profile: String) {
        doc.set("issuer", issuer, profile: profile)
        doc.set("client_id", clientID, profile: profile)
        doc.set("scope", scope, profile: profile)
        doc.set("port", port.map(String.init), profile: profile)
        doc.set("ca_file", caFile, profile: profile)
        doc.set("storage", storage?.rawValue, profile: profile)
        doc.set("flow", flow?.rawValue, profile: profile)
        applyRequestAndClient(to: &doc, profile: profile)
        doc.set("browser_command", browserCommand, profile: profile)
    }
}
