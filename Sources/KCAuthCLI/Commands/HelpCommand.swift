/// `kcauth help [COMMAND]`: handled by the parser (it turns into `Invocation.help`); listed here
/// so that it appears in help, the man page and completions like every other command.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        "help", summary: "Show help for kcauth or one of its commands",
        description: "Shows the list of commands, or the usage and flags of one command.",
        usage: "[<command>]", options: [], positionals: ["command"], arguments: .commands)

    static func run(_ command: ParsedCommand, _ services: Services) throws {}
}
