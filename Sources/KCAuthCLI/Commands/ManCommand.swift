/// `kcauth __man`: the man page in roff, for `scripts/generate-docs` (which writes
/// man/kcauth.1). Hidden: users read the installed page with `man kcauth`.
enum ManCommand: Command {
    static let spec = CommandSpec(
        "__man", summary: "Print the man page (roff)",
        description: "Prints the kcauth(1) man page, generated from the command table.",
        usage: "", options: [])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        services.console.out(ManPage.render())
    }
}
