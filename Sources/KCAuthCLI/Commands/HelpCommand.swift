/// `kcauth help [COMMAND]`: answered by the parser (it turns into `Invocation.help`), so it has
/// a spec (for help, the man page and completions) and nothing to run.
enum HelpCommand {
    static let spec = CommandSpec(
        "help", summary: "Show help for kcauth or one of its commands",
        description: "Shows the list of commands, or the usage and flags of one command.",
        usage: "[<command>]", options: [], positionals: ["command"], arguments: .commands)
}
