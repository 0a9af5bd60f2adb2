import KCAuth
import KCAuthCore

/// `kcauth profiles`: the profiles of the configuration file. No network, no keyring: `--names`
/// feeds shell completion and must answer at once.
enum ProfilesCommand: Command {
    static let spec = CommandSpec(
        "profiles", summary: "List the profiles and their settings",
        description: """
        Lists the profiles of the configuration file with their issuer and client; -o json adds \
        every setting. The profile commands use now is marked with '*': --profile, else \
        KCAUTH_PROFILE, else the default set with `kcauth use`, else 'default' (when the file \
        has no such profile, a line on stderr says how to create it). --names prints \
        only the names, one per line (for shell completion). Reads only the configuration \
        file: no network, no keyring; see `kcauth status` for the sessions.
        """,
        options: [CommandTable.profile, names, SessionOutput.option],
        examples: ["kcauth profiles", "kcauth profiles --names"])

    static let names = OptionSpec("names", help: "Print only the profile names, one per line")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profiles = services.context.profiles()
        if command.flag(names) {
            services.console.out(try profiles.names().map { $0 + "\n" }.joined())
            return
        }
        let report = try profiles.run(selected: command.value(SettingsOptions.profile))
        let entries = report.entries
        switch SessionOutput(command) {
        case .text:
            // For people, on stderr: the list itself stays the profiles of the file.
            if entries.isEmpty {
                services.console.err("No profiles in \(report.path) yet: `kcauth login --issuer URL --client-id ID` "
                                     + "creates one (--profile NAME names it).\n")
                return
            }
            if !entries.contains(where: \.selected) {
                let name = report.selectedProfile
                services.console.err("Commands use profile '\(name)' now, which is not in \(report.path): "
                                     + "`\(LoginHint.login(profile: name))` creates it, `kcauth use NAME` picks another.\n")
            }
            let rows = entries.map { e in
                (e.selected ? "* " : "  ") + e.name + (e.isDefault ? " (default)" : "")
            }
            let issuers = entries.map { setting($0, "issuer") ?? "(no issuer set)" }
            let nameWidth = (rows.map(\.count).max() ?? 0) + 2, issuerWidth = (issuers.map(\.count).max() ?? 0) + 2
            services.console.out(zip(entries, zip(rows, issuers)).map { e, cells in
                let client = setting(e, "client_id") ?? ""
                let line = cells.0.padded(to: nameWidth) + (client.isEmpty ? cells.1 : cells.1.padded(to: issuerWidth) + client)
                return line + "\n"
            }.joined())
        case .json:
            services.console.out(JSONValue.fields([
                ("version", .number(SessionOutput.schemaVersion)),
                ("config_file", .string(report.path)),
                ("default_profile", .string(report.defaultProfile)),
                ("selected_profile", .string(report.selectedProfile)),
                ("profiles", .array(entries.map { e in .fields([
                    ("profile", .string(e.name)),
                    ("default", .bool(e.isDefault)),
                    ("selected", .bool(e.selected)),
                    ("settings", .fields(e.settings.map { ($0.key, .string($0.value)) })),
                ]) })),
            ]).rendered())
        }
    }

    private static func setting(_ e: Profiles.Entry, _ key: String) -> String? { e.settings.first { $0.key == key }?.value }
}
