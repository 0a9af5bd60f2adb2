import KCAuth
import KCAuthContract
import KCAuthCore

/// `--debug[=FORMAT]` (every command, before or after its name) and `KCAUTH_DEBUG`: the trace of
/// what the command does, secrets redacted, on standard error or in `KCAUTH_DEBUG_FILE`.
enum TraceOption {
    static let row = SettingsCatalogue.debug

    static var spec: OptionSpec {
        var option = OptionSpec(String(row.flag!.dropFirst(2)), value: row.optionValue, help: row.optionHelp!,
                                choices: ChoiceWords.words(TraceMode.self), environment: row.environment)
        option.valueIsOptional = true
        return option
    }

    /// The mode the command line and the environment ask for: the flag wins; nil: no trace.
    static func mode(_ command: ParsedCommand, environment: [String: String]) throws -> TraceMode? {
        let setting = command.values[spec.long].map { TraceMode.setting(flag: $0.isEmpty ? nil : $0) }
            ?? TraceMode.setting(environment: environment[row.environment!])
        switch setting {
        case .off: return nil
        case .on(let mode): return mode
        case .refused:
            let words = ChoiceWords.or(["1"] + ChoiceWords.words(TraceMode.self))
            throw KCAuthError(.usage, "\(row.environment!) is '\(Sanitize.oneLine(environment[row.environment!] ?? "", limit: 40))': use \(words)",
                              hint: "\(ChoiceWords.or(SettingCheck.offWords)) turns the trace off")
        }
    }

    /// The sink for the command: ``NoTrace`` when nobody asked for a trace.
    static func sink(_ command: ParsedCommand, environment: [String: String]) throws -> any TraceSink {
        guard let mode = try mode(command, environment: environment) else { return NoTrace() }
        return try Adapters.trace(mode, file: environment[SettingsCatalogue.debugFile.environment!])
    }

    /// The first event: which command runs, with which options (their names only: a value may
    /// be a path or a name, never needed to read the trace).
    static func started(_ command: ParsedCommand) -> TraceEvent {
        let given = (Array(command.values.keys) + Array(command.flags)).filter { $0 != spec.long }.sorted().map { TraceValue.text("--" + $0) }
        return TraceEvent("command.start", ("command", .text(command.name)), ("program", .text("kcauth-full")),
                          ("version", .text(KCAuthMain.version)), ("options", .list(given)))
    }
}
