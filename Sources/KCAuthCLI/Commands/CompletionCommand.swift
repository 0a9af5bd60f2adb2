import KCAuthCore

/// `kcauth completion SHELL`: the shell completion script, generated from `CommandTable` like
/// help and the man page, so it always knows exactly the flags this binary accepts.
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        "completion", summary: "Print the shell completion script for bash, zsh or fish",
        description: """
        Prints a script that completes kcauth's commands, their flags, the values of flags \
        that take one of a few values, and profile names (read from the configuration file \
        at completion time: no network, no keyring). To load one by hand: in bash, add \
        `source <(kcauth completion bash)` to ~/.bashrc; in zsh, save it as _kcauth in a \
        directory of $fpath; in fish, save it as ~/.config/fish/completions/kcauth.fish.
        """,
        usage: "{bash|zsh|fish}",
        options: [],
        positionals: ["shell"],
        arguments: .choices(Shell.allCases.map(\.rawValue)),
        examples: [
            "source <(kcauth completion bash)",
            "kcauth completion zsh > ~/.zfunc/_kcauth",
            "kcauth completion fish > ~/.config/fish/completions/kcauth.fish",
        ])

    enum Shell: String, CaseIterable {
        case bash, zsh, fish

        var script: String {
            switch self {
            case .bash: return Completions.bash()
            case .zsh: return Completions.zsh()
            case .fish: return Completions.fish()
            }
        }
    }

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        // The parser has checked the name against `arguments`; only its absence is left.
        guard let name = command.positionals.first, let shell = Shell(rawValue: name) else {
            throw KCAuthError(.usage, "`kcauth completion` needs a shell: bash, zsh or fish")
        }
        services.console.out(shell.script)
    }
}
