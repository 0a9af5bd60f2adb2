/// Every setting of one profile, resolved once per command with the precedence
/// flag > environment > saved profile > default, each with its source.
///
/// The one place that precedence is written: commands, the library (`TokenProvider`),
/// `doctor` and `status` all read settings from here.
public struct ResolvedProfile: Sendable, Equatable {
    public var profile: Setting<String>
    /// Normalised (`IssuerPolicy`); nil when nothing names one.
    public var issuer: Setting<String>?
    public var clientID: Setting<String>?
    /// Normalised, `openid` included.
    public var scope: Setting<String>
    public var storage: Setting<StorageKind>
    /// An absolute path; nil: the system's trust store.
    public var caFile: Setting<String>?
    /// nil when nothing asks for a flow (kcauth chooses).
    public var flow: Setting<FlowSetting>?
    public var port: Setting<UInt16>
    /// Seconds to wait for the browser.
    public var timeout: Setting<Double>
    /// The sticky authorization request parameters (`StickyParameter`), each with its source.
    public var sticky: [StickyParameter: Setting<String>] = [:]
    /// How the client authenticates; `.none` (a public client) by default.
    public var clientAuth = Setting<ClientAuthenticationSetting>(.none, .default)
    /// `client_credentials` when the profile signs in as the client itself.
    public var grant: Setting<String>? = nil
    /// What the configuration file says for this profile (for what a login must remember).
    public var saved: ProfileSettings
    /// How to start the browser; nil: `$BROWSER`, WSL's launchers, `xdg-open`.
    public var browserCommand: Setting<BrowserCommand>? = nil
    /// Sender constraints: DPoP (RFC 9449) and PAR (RFC 9126).
    public var dpop = Setting<DPoPMode>(.no, .default)
    public var par = Setting<PARMode>(.auto, .default)

    public var name: String { profile.value }

    /// What a runtime cache entry of this profile must match to be served.
    public var cacheBinding: CacheBinding {
        CacheBinding(storage: storage.value, issuer: issuer?.value, clientID: clientID?.value)
    }
}
