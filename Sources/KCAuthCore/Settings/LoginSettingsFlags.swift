/// What the login's command line said about the login-only settings a profile keeps:
/// sticky authorization parameters and where the client's credentials come from (never the
/// credentials: a secret in argv is readable by every user of the machine).
public struct LoginSettingsFlags: Sendable, Equatable {
    /// The sticky authorization parameters given; an empty value forgets the saved one.
    public var sticky: [StickyParameter: String] = [:]
    /// The client signs in as itself (the `grant` setting).
    public var clientCredentials = false
    /// Paths as given, made absolute by the command line.
    public var clientSecretFile: String?
    public var clientKey: String?
    public var clientKeyID: String?
    public var clientKeyAlgorithm: String?
    public var clientAssertionFile: String?
    /// A platform's assertion (`--client-assertion-from`; a `file:` path as given), the audience
    /// to ask it for, and what it is sent as.
    public var clientAssertionFrom: AssertionSource?
    public var clientAssertionAudience: String?
    public var clientAssertionType: ClientAssertionType?
    /// The `dpop` and `par` settings of this login.
    public var dpop: DPoPMode?
    public var par: PARMode?

    public init(sticky: [StickyParameter: String] = [:], clientCredentials: Bool = false,
                clientSecretFile: String? = nil, clientKey: String? = nil, clientKeyID: String? = nil,
                clientKeyAlgorithm: String? = nil, clientAssertionFile: String? = nil) {
        self.sticky = sticky
        self.clientCredentials = clientCredentials
        self.clientSecretFile = clientSecretFile
        self.clientKey = clientKey
        self.clientKeyID = clientKeyID
        self.clientKeyAlgorithm = clientKeyAlgorithm
        self.clientAssertionFile = clientAssertionFile
    }
}
