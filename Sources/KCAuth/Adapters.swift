import FoundationEssentials
import KCAuthCore
import KCAuthCrypto
import KCAuthSystem

/// Everything kcauth talks to outside its own logic: the seams a test replaces. `system` builds
/// and names the real ones; `KCAuthTestSupport` has fakes. Nothing here defaults to the real
/// system: a seam that talks to the machine and was not given is ``RequiredAdapter`` and stops the
/// process when used; the few defaults left do nothing (``NoReminder``, ``UnsharedSignIn``,
/// ``NoQRCode``, no WSL, no encrypted store). Factories, not instances, for the adapters that
/// cost something to set up, so the `token` hot path never initialises libcurl or binds a socket.
public struct Adapters: Sendable {
    public var environment: [String: String]
    /// For relative paths given on the command line; nil when unknown.
    public var workingDirectory: String?
    public var clock: any TimeSource
    public var random: any RandomSource
    public var settings: any SettingsStore
    /// HTTP for a provider, trusting `caFile` in addition to the system's CAs.
    public var transport: @Sendable (_ caFile: String?) -> any HTTPTransport
    /// A profile's store of a kind; `warn` receives one-line warnings (the plaintext file store).
    public var secretStore: @Sendable (_ kind: StorageKind, _ warn: @escaping @Sendable (String) -> Void) -> any SecretStore
    /// The runtime token cache; nil: none.
    public var tokenCache: (any TokenCache)?
    /// The cross-process refresh lock for sessions in a store of `kind`.
    public var lock: @Sendable (_ kind: StorageKind) -> any ProfileLock
    public var opener: any URLOpener
    /// A loopback listener answering on `path` (`/callback`, `/logged-out`).
    public var receiver: @Sendable (_ path: String) -> any RedirectReceiver
    public var sleeper: any Sleeper
    /// Where a confidential client's secret, key or assertion is read (never argv): the
    /// environment and files.
    @RequiredAdapter("credentials") public var credentials: any CredentialReader
    /// The programs a `command:` client assertion source names (never a shell).
    @RequiredAdapter("assertionCommands") public var assertionCommands: any AssertionCommandRunner
    /// Standard input, for the first-run questions of `login`.
    @RequiredAdapter("terminal") public var terminal: any TerminalInput
    /// The cross-process sign-in lock of a store (one sign-in in flight per session); made on
    /// first use.
    public var signInLock: @Sendable (_ kind: StorageKind) -> any SignInLock = { _ in UnsharedSignIn() }
    /// The desktop notification of a caller that cannot sign in (`SignInReminder`); made on first
    /// use.
    public var reminder: @Sendable () -> any SignInReminder = { NoReminder() }
    /// The notes of profiles whose last sign-in kept the session in memory only.
    public var memorySignIns: any MemorySignIns = NoMemorySignIns()
    /// Where `--debug` traces what kcauth does (standard error, `KCAUTH_DEBUG_FILE`); ``NoTrace``
    /// when debugging is off. The context puts a tracing layer around the transport, the stores,
    /// the locks and the browser launcher only when it is on.
    @RequiredAdapter("trace") public var trace: any TraceSink
    /// One-line warnings for the person (the CLI: stderr), such as an ignored `.kcauth-profile`.
    public var warn: @Sendable (String) -> Void = { _ in }
    /// The keys of the configuration file (at `path`) that kcauth does not read, told once per
    /// context when the file is first read (the CLI: one line on stderr, with a guess at the key
    /// that was meant).
    public var unknownConfigKeys: @Sendable (_ path: String, [UnknownConfigKey]) -> Void = { _, _ in }
    /// The terminal for paste-back (`PastedRedirect`); nil when stdin is not a terminal.
    public var lineInput: (any LineInput)?

    // MARK: integrations: git and docker helpers, exec, kubeconfig
    /// Standard input, for the git and docker credential helpers' requests.
    @RequiredAdapter("standardInput") public var standardInput: any StandardInputSource
    /// The user's command for `exec` (replaced into, or started and watched with `--keep-fresh`).
    @RequiredAdapter("launcher") public var launcher: any CommandLauncher
    /// The token file of `exec --keep-fresh`.
    @RequiredAdapter("tokenFiles") public var tokenFiles: any TokenFiles
    /// The kubeconfig file `kubeconfig --merge` rewrites.
    @RequiredAdapter("kubeconfigFiles") public var kubeconfigFiles: any KubeconfigFiles
    // MARK: doctor, stores, ssh
    /// What `doctor` checks on this machine (keyring, stores, runtime directory, browser).
    @RequiredAdapter("hostInspection") public var hostInspection: @Sendable () -> any HostInspection
    /// What `doctor --bundle` collects from the machine and how it writes the archive.
    @RequiredAdapter("bundleHost") public var bundleHost: any BundleHost
    /// The encrypted store's key in the kernel keyring (`unlock`, `lock`, `passphrase`); nil:
    /// no encrypted store in this build.
    public var storeKeyring: @Sendable () -> (any StoreKeyring)? = { nil }
    /// A forward's machinery on the laptop (`ssh`, `forward-agent`): directory, socket, signals, log.
    @RequiredAdapter("forwardHost") public var forwardHost: @Sendable () -> any ForwardHost
    /// The system ssh (`kcauth ssh`).
    @RequiredAdapter("ssh") public var ssh: @Sendable () -> any SSHClient
    /// The remote side's way to the laptop: the forwarded socket.
    @RequiredAdapter("forwardConnector") public var forwardConnector: @Sendable () -> any ForwardConnector
    // MARK: login
    /// The device flow's link as a QR code on the terminal.
    public var qrCode: any QRCodeRenderer = NoQRCode()
    /// Whether this is WSL, where the Windows browser opens without any display variable
    /// (asked when a login chooses its flow; the kernel release file is read then).
    public var wsl: @Sendable () -> Bool = { false }

    /// The seams every command needs; the ``RequiredAdapter`` ones are set afterwards (by `system`, or
    /// by a test's fakes).
    public init(environment: [String: String], workingDirectory: String?, clock: any TimeSource, random: any RandomSource,
                settings: any SettingsStore, transport: @escaping @Sendable (String?) -> any HTTPTransport,
                secretStore: @escaping @Sendable (StorageKind, @escaping @Sendable (String) -> Void) -> any SecretStore,
                tokenCache: (any TokenCache)?, lock: @escaping @Sendable (StorageKind) -> any ProfileLock,
                opener: any URLOpener, receiver: @escaping @Sendable (String) -> any RedirectReceiver, sleeper: any Sleeper,
                lineInput: (any LineInput)? = nil) {
        self.lineInput = lineInput
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.clock = clock
        self.random = random
        self.settings = settings
        self.transport = transport
        self.secretStore = secretStore
        self.tokenCache = tokenCache
        self.lock = lock
        self.opener = opener
        self.receiver = receiver
        self.sleeper = sleeper
    }

    /// The real trace sink (`--debug`): lines in `mode` on standard error, or appended to `file`
    /// (created 0600; a link or another user's file is refused with `configuration`). For a
    /// program that captures one command's trace (a bug-report bundle): pass it as `trace` to
    /// ``system(environment:onUnlockPrompt:pages:reminderBody:presentError:storeNotice:trace:)``.
    public static func trace(_ mode: TraceMode, file: String?) throws -> any TraceSink {
        try SystemTrace.open(mode: mode, file: file)
    }

    /// The real adapters for an environment, each named here (the composition root: nothing
    /// else in kcauth builds a real adapter). `onUnlockPrompt`: the keyring is about to wait for
    /// its unlock dialog (the CLI says so on stderr). `pages`: the words and HTML of the pages
    /// the browser sees at the end of a sign-in or sign-out (the CLI names its commands);
    /// `reminderBody`: the desktop reminder's text for a profile, saying how to sign in.
    /// `presentError`: the front end's one line for an error (the keyring watchdog's last word);
    /// `storeNotice`: the encrypted store's notices in the front end's words. `trace`: where
    /// `--debug` goes; nil: as `KCAUTH_DEBUG` and `KCAUTH_DEBUG_FILE` say (``SystemTrace``).
    public static func system(environment: [String: String] = ProcessInfo.processInfo.environment,
                              onUnlockPrompt: @escaping @Sendable (UnlockPromptNotice) -> Void = { _ in },
                              pages: any LandingPageRenderer = StandardLandingPages(),
                              reminderBody: @escaping @Sendable (_ profile: String) -> String = { "Sign in again for profile \($0)." },
                              presentError: @escaping @Sendable (KCAuthError) -> String = { "error: " + $0.message },
                              storeNotice: @escaping @Sendable (EncryptedStoreNotice) -> String = { "encrypted store: \($0)" },
                              trace given: (any TraceSink)? = nil)
        -> Adapters {
        let paths = Paths(environment: environment)
        let trace = given ?? SystemTrace.fromEnvironment(environment)
        let cwd = FileManager.default.currentDirectoryPath
        var adapters = Adapters(
            environment: environment, workingDirectory: cwd.hasPrefix("/") ? cwd : nil,
            clock: SystemClock(), random: SecureRandom(), settings: FileSettingsStore(path: paths.configFile),
            transport: { CurlTransport(caFile: $0) },
            secretStore: { kind, warn in
                switch kind {
                case .file: return FileSecretStore(directory: paths.stateDirectory, warn: warn)
                case .encrypted:
                    // Its notes (store created, no kernel keyring) go straight to stderr: they
                    // matter to every command that may ask for the passphrase, not only login.
                    return EncryptedSecretStore(directory: paths.stateDirectory, passphrases: PassphraseSource(environment: environment),
                                                clock: SystemClock(), notice: { PassphraseSource.say(storeNotice($0) + "\n") },
                                                trace: trace)
                case .memory: return MemorySecretStore()
                default: return LibSecretStore(environment: environment, onUnlockPrompt: onUnlockPrompt, presentError: presentError)
                }
            },
            tokenCache: RuntimeTokenCache.forEnvironment(environment, paths: paths),
            lock: { FileProfileLock(namespace: $0.rawValue) },
            opener: BrowserOpener(environment: environment),
            receiver: { LoopbackReceiver(path: $0, pages: pages, trace: trace) },
            sleeper: SystemSleeper(),
            lineInput: TerminalLineReader.standardInput())
        adapters.trace = trace
        adapters.credentials = SystemCredentialReader(environment: environment)
        adapters.assertionCommands = SystemAssertionCommands(environment: environment)
        adapters.terminal = TerminalQuestionInput()
        adapters.reminder = { DesktopReminder(environment: environment, body: reminderBody) }
        adapters.signInLock = { FileSignInLock(namespace: $0.rawValue) }
        adapters.memorySignIns = MemorySignInMarks(configFile: paths.configFile)
        // MARK: integrations: git and docker helpers, exec, kubeconfig
        adapters.standardInput = SystemStandardInput()
        adapters.launcher = SystemCommandLauncher()
        adapters.tokenFiles = SystemTokenFiles(environment: environment)
        adapters.kubeconfigFiles = SystemKubeconfigFiles()
        // MARK: doctor, stores, ssh
        adapters.hostInspection = { [secretStore = adapters.secretStore] in
            SystemHostInspection(environment: environment, encrypted: { secretStore(.encrypted) { _ in } })
        }
        adapters.bundleHost = SystemBundleHost()
        adapters.storeKeyring = { [secretStore = adapters.secretStore] in secretStore(.encrypted) { _ in } as? any StoreKeyring }
        adapters.forwardHost = { SystemForwardHost(environment: environment) }
        adapters.ssh = { SystemSSHClient() }
        adapters.forwardConnector = { SocketForwardConnector() }
        // MARK: login
        adapters.qrCode = TerminalQRRenderer()
        adapters.wsl = { WSLProbe().isWSL(environment: environment) }
        return adapters
    }
}
