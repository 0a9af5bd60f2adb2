/// Every command and option kcauth has. Help, the man page and the shell completions are all
/// generated from this table, and tests check that the parser accepts exactly what it lists.
/// A command lives in `Commands/<Name>Command.swift`: its `spec` and its `run`.
public enum CommandTable {
    static let help = OptionSpec("help", short: "h", help: "Show help for this command")
    static let generalHelp = OptionSpec("help", short: "h", help: "Show this help")

    static let profile = SettingsOptions.profile

    /// In the order `kcauth help` lists them.
    static let runners: [any Command.Type] = [
        LoginCommand.self,
        TokenCommand.self,
        RefreshCommand.self,
        LogoutCommand.self,
        WhoamiCommand.self,
        StatusCommand.self,
        ProfilesCommand.self,
        UseCommand.self,
        DoctorCommand.self,
        SetupClientCommand.self,
        CompletionCommand.self,
        HelpCommand.self,
    ]

    /// Commands that run but are listed nowhere (help, man page, completions, suggestions):
    /// tools for building kcauth itself, such as `kcauth __man` for `scripts/generate-docs`.
    static let hiddenRunners: [any Command.Type] = [ManCommand.self]

    public static let commands: [CommandSpec] = runners.map { $0.spec }

    /// Options accepted before a command name.
    public static let topLevelOptions: [OptionSpec] = [
        generalHelp,
        OptionSpec("version", help: "Print kcauth's version"),
    ]

    /// A listed command or a hidden one.
    public static func command(named name: String) -> CommandSpec? { runner(named: name)?.spec }

    static func runner(named name: String) -> (any Command.Type)? {
        runners.first { $0.spec.name == name } ?? hiddenRunners.first { $0.spec.name == name }
    }
}
