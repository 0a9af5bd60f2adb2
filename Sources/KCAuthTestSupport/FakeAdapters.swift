import KCAuth
import KCAuthCore

/// Every adapter kcauth needs, as fakes, for running commands and library use cases in-process.
/// Whatever a test does not set up fails loudly: an unexpected HTTP request is a test failure,
/// and a seam of `Adapters` nobody gave a fake for stops the test process, naming the seam
/// (`Adapters` has no real defaults).
public final class FakeAdapters: @unchecked Sendable {
    public let transport = FakeTransport()
    public let stores: [StorageKind: InMemorySecretStore] = [.keyring: InMemorySecretStore(name: "keyring"),
                                                              .file: InMemorySecretStore(name: "file"),
                                                              .memory: InMemorySecretStore(name: "memory")]
    public let settings: InMemorySettingsStore
    public let cache = MemoryTokenCache()
    public let lock = RecordingLock()
    public let opener = RecordingOpener()
    public let receiver = ScriptedReceiver()
    public let sleeper = FakeSleeper()
    public var clock = FixedClock(time: Fixtures.now)
    public var environment: [String: String]
    /// Standard input: nobody there unless a test scripts someone (never the real stdin).
    public var terminal = ScriptedTerminal(interactive: false)
    /// Standard input of the credential helpers (empty unless a test scripts a request).
    public let standardInput = ScriptedStandardInput()
    /// `exec`'s command: recorded, never started.
    public let launcher = RecordingLauncher()
    public let tokenFiles = MemoryTokenFiles()
    public let kubeconfigFiles = MemoryKubeconfigFiles()
    // MARK: doctor, stores, ssh
    /// `doctor`'s machine: every check passes unless a test scripts a failure.
    public let host = ScriptedHostInspection()
    public let bundleHost = RecordingBundleHost()
    /// The encrypted store's key and the kernel keyring (`unlock`, `lock`, `passphrase`).
    public lazy var storeKeyring = FakeStoreKeyring(clock: clock)
    /// A forward's laptop, the system ssh, and the remote side's socket.
    public let forwardHost = FakeForwardHost()
    public let ssh = ScriptedSSH()
    public let forwardConnector = FakeForwardConnector()
    /// A confidential client's secrets: the fake environment above (and whatever a test sets on
    /// it), and files in memory only.
    public let credentials = FakeCredentialReader()
    /// The programs of `command:` client assertion sources: scripted, never started.
    public let assertionCommands = ScriptedAssertionCommands()
    /// The desktop reminder of a caller that cannot sign in: recorded, never shown.
    public let reminder = RecordingReminder()
    /// `--debug`'s sink: off unless a test records the trace (`RecordingTrace`).
    public var trace: any TraceSink = NoTrace()

    public init(config: String = "", environment: [String: String] = [:]) {
        settings = InMemorySettingsStore(config)
        self.environment = environment
        receiver.openedURL = { [opener, receiver] in receiver.follow(opener.opened.last ?? "") }
    }

    public var keyring: InMemorySecretStore { stores[.keyring]! }

    /// The fakes of the seams `Adapters.init` takes, and nothing else: every other seam is one a
    /// test forgot (what `adapters` sets on top of it).
    public var bareAdapters: Adapters {
        Adapters(environment: environment, workingDirectory: "/work", clock: clock, random: FixedRandom(), settings: settings,
                 transport: { [transport] _ in transport },
                 secretStore: { [stores] kind, _ in stores[kind]! },
                 tokenCache: cache, lock: { [lock] _ in lock }, opener: opener,
                 receiver: { [receiver] _ in receiver }, sleeper: sleeper)
    }

    public var adapters: Adapters {
        var adapters = bareAdapters
        credentials.environment.merge(environment) { given, _ in given }
        adapters.credentials = credentials
        adapters.assertionCommands = assertionCommands
        adapters.trace = trace
        adapters.terminal = terminal
        adapters.standardInput = standardInput
        adapters.launcher = launcher
        adapters.tokenFiles = tokenFiles
        adapters.kubeconfigFiles = kubeconfigFiles
        adapters.hostInspection = { [host] in host }
        adapters.bundleHost = bundleHost
        adapters.storeKeyring = { [storeKeyring] in storeKeyring }
        adapters.forwardHost = { [forwardHost] in forwardHost }
        adapters.ssh = { [ssh] in ssh }
        adapters.forwardConnector = { [forwardConnector] in forwardConnector }
        adapters.qrCode = FakeQRCode()
        adapters.reminder = { [reminder] in reminder }
        return adapters
    }

    /// The provider of `Fixtures`: discovery and JWKS answered, tokens as given.
    public func serveProvider(tokenResponses: [String] = [Fixtures.tokenResponse()]) {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        // The check before the browser opens (`AuthorizationCheck`), without a push: a sign-in page.
        transport.onAnyQuery(.get, Fixtures.authorizationEndpoint, FakeTransport.loginPage)
        for response in tokenResponses { transport.on(.post, Fixtures.tokenEndpoint, json: response) }
        // Keycloak's discovery lists its PAR endpoint, so a browser login pushes (RFC 9126).
        transport.on(.post, Fixtures.parEndpoint, status: 201, json: #"{"request_uri":"\#(Fixtures.requestURI)","expires_in":60}"#)
    }
}

extension FakeAdapters {
    /// The scripted browser signs in: the provider redirects back with `code`, echoing the
    /// authorization request's `state` and naming its issuer (RFC 9207).
    public func browserSignsIn(code: String = "c-1") {
        // After a push the URL has only client_id and request_uri: the provider knows the state.
        receiver.script = [{ [transport] url in
            let state = queryParameters(of: url)["state"]
                ?? transport.requests(to: Fixtures.parEndpoint).last.map(formFields(of:))?["state"] ?? ""
            return ["code": code, "state": state, "iss": Fixtures.issuer]
        }]
    }

    /// The configuration of a signed-in profile of the `Fixtures` provider.
    public static let profileConfig = "[default]\nissuer = \(Fixtures.issuer)\nclient_id = kcauth\n"
}
