import KCAuthContract

/// Every command and option kcauth has. Help, the man page and the shell completions are all
/// generated from this table, and tests check that the parser accepts exactly what it lists.
/// (The man page generator is a build tool, `kcauth-docgen` in Sources/KCAuthDocGen, so that
/// kcauth itself has no command for it.)
/// A command lives in `Commands/<Name>Command.swift`: its `spec` and its `run`.
public enum CommandTable {
    static let help = OptionSpec("help", short: "h", help: "Show help for this command")
    /// `--debug[=FORMAT]`, on every command and before any (``TraceOption``).
    static let debug = TraceOption.spec
    static let generalHelp = OptionSpec("help", short: "h", help: "Show this help")

    static let profile = SettingsOptions.profile

    /// In the order `kcauth help` lists them.
    static let runners: [any Command.Type] = [
        LoginCommand.self,
        TokenCommand.self,
        RefreshCommand.self,
        LogoutCommand.self,
        WhoAmICommand.self,
        StatusCommand.self,
        PromptCommand.self,
        UnlockCommand.self,
        LockCommand.self,
        PassphraseCommand.self,
        ProfilesCommand.self,
        UseCommand.self,
        ExecCommand.self,
        SSHCommand.self,
        ForwardAgentCommand.self,
        KubeconfigCommand.self,
        GitCredentialCommand.self,
        DockerCredentialCommand.self,
        DoctorCommand.self,
        SetupClientCommand.self,
        CompletionCommand.self,
    ]

    /// Every command, listed: the runners, then `help` (which the parser answers itself).
    public static let commands: [CommandSpec] = runners.map { $0.spec } + [HelpCommand.spec]

    /// Options accepted before a command name. Besides help and version, the global options:
    /// before the command they mean what they mean after it, for a command that takes them
    /// (`GlobalOptions`).
    public static let topLevelOptions: [OptionSpec] = [
        generalHelp,
        OptionSpec("version", help: "Print kcauth's version"),
        OptionSpec(SettingsCatalogue.profile, help: "Profile to use: the command's --profile, given before the command"),
        debug,
    ]

    public static func command(named name: String) -> CommandSpec? { commands.first { $0.name == name } }

    static func runner(named name: String) -> (any Command.Type)? {
        runners.first { $0.spec.name == name }
    }
}
