import KCAuth
import KCAuthContract
import KCAuthCore

/// `kcauth prompt`: one short segment for a shell prompt, tmux or a status bar, from what a warm
/// `kcauth token` reads (the front serves it too). A prompt must never show an error: whatever
/// the session, the files or the environment say, it prints one line (empty when there is
/// nothing to show) and exits 0. Only its own command line can be wrong (exit 2), which the
/// person writing the prompt sees at once.
enum PromptCommand: Command {
    static let format = OptionSpec("format", value: "FORMAT",
                                   help: "The line, with {profile} {state} {expires_in} {user} {summary}; {{ and }} for braces",
                                   default: PromptFormat.defaultText)

    static let spec = CommandSpec(
        "prompt", summary: "Print the session's state for a shell prompt or status bar",
        description: """
        Prints one short line for a shell prompt, tmux or a status bar: the profile and the state \
        of its session. By default `work 42m` (signed in, 42 minutes left), `work expired` (the \
        access token expired; the next `kcauth token` refreshes it), `work login` (sign-in \
        needed), `work locked` (the store was locked when kcauth last needed it) or `work ?` \
        (nothing known here yet: after a reboot, before the first `kcauth token`). It reads only \
        what a warm `kcauth token` reads (the configuration file, the runtime cache, the session \
        marks): never the keyring, the network or a person, and it refreshes nothing. It exits 0 \
        whatever the state and writes nothing to stderr; a profile without a section in the \
        configuration file, or a session forwarded by `kcauth ssh`, gives an empty line. Only a \
        mistake on its own command line (an unknown option, a bad --format) is an error (exit 2). \
        --format takes {profile}; {state}: valid, refreshable, login_required, locked or unknown; \
        {expires_in}: the time left, e.g. 45s, 42m, 3h12m, 2d5h (empty unless valid); {user}: the \
        signed-in user (ASCII letters, digits and . _ @ + - only, anything else as ?; empty when \
        unknown); {summary}: what the default shows; {{ and }} print { and }.
        """,
        options: [CommandTable.profile, format],
        examples: [
            "PS1='[$(kcauth prompt)] \\w \\$ '   # bash",
            "kcauth prompt --profile work --format '{user}@{profile} {expires_in}'",
            "kcauth prompt --format '{state}'   # valid, refreshable, login_required, …",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let text = command.value(format) ?? PromptFormat.defaultText
        guard let template = PromptFormat(text) else {
            let names = PromptFormat.Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
            throw KCAuthError(.usage, "--format: '\(Sanitize.oneLine(text))' has a '{' that opens no placeholder",
                              hint: "use \(names); write {{ and }} for a literal { and }")
        }
        let flags = try SettingsOptions.flags(command, workingDirectory: services.context.adapters.workingDirectory)
        let line = services.context.glance().run(flags).map { template.render(profile: $0.profile, $0.glance) } ?? ""
        services.console.out(line + "\n")
    }
}
