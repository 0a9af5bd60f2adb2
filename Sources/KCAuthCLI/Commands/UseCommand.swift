import KCAuth
import KCAuthCore

/// `kcauth use NAME`: make a profile the default (`default_profile = NAME` in the config file).
enum UseCommand: Command {
    static let spec = CommandSpec(
        "use", summary: "Make a profile the default",
        description: """
        Writes `default_profile = NAME` at the top of the configuration file, so commands \
        that are not given a profile use this one (a profile flag or KCAUTH_PROFILE still \
        wins). The profile must exist in the file; 'default' always does.
        """,
        usage: "<name>",
        options: [],
        positionals: ["name"],
        arguments: .profiles,
        examples: ["kcauth use work", "kcauth use default"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        guard let name = command.positionals.first else {
            throw KCAuthError(.usage, "`kcauth use` needs a profile name", hint: "see \(QuotedCommand(ProfilesCommand.spec).with(ProfilesCommand.names).quoted)")
        }
        try services.context.use().run(name)
        let row = SettingsCatalogue.profile
        services.console.err("Commands now use profile '\(name)' unless \(row.flag!) or \(row.environment!) names another.\n")
        if let env = EnvironmentValues(services.environment).lenient(row.environment!), env != name {
            services.console.err("Note: \(row.environment!)=\(Sanitize.oneLine(env)) is set here and takes precedence.\n")
        }
    }
}
