import KCAuth
import KCAuthCore

/// What a command gets: the composition root (`KCAuthContext`, in the KCAuth library) and the
/// console. Tests build it over fakes (`Adapters` from `KCAuthTestSupport`).
public struct Services: Sendable {
    public let context: KCAuthContext
    public let console: any Console

    public init(context: KCAuthContext, console: any Console) {
        self.context = context
        self.console = console
    }

    /// The real adapters for an environment; `trace`: where `--debug` goes (``NoTrace``: off).
    public init(environment: [String: String], console: any Console, trace: any TraceSink = NoTrace()) {
        var adapters = Adapters.system(environment: environment,
                                       onUnlockPrompt: { console.err(UnlockPromptLine.text($0) + "\n") },
                                       pages: LandingPageWords(),
                                       reminderBody: { "Run \(LoginHint.login(profile: $0)) in a terminal." },
                                       presentError: ErrorPresenter.line, storeNotice: StoreWords.notice, trace: trace)
        adapters.warn = { console.err("warning: " + $0 + "\n") }
        adapters.unknownConfigKeys = { console.err(ConfigWords.warning(path: $0, $1)) }
        self.init(context: KCAuthContext(adapters: adapters), console: console)
    }

    public var environment: [String: String] { context.environment }

    /// The command's profile and settings, resolved once (flags > environment > file > defaults).
    func resolve(_ command: ParsedCommand) throws -> ResolvedProfile {
        try context.resolve(SettingsOptions.flags(command, workingDirectory: context.adapters.workingDirectory))
    }
}
