import KCAuthCore

/// Turns an error into one line on stderr (`error: what happened; what to do`) and an exit code.
enum ErrorPresenter {
    static func present(_ error: KCAuthError, on console: any Console) -> Int32 {
        console.err(line(error) + "\n")
        return ExitStatus.of(error.code).code
    }

    /// `error: what happened; what to do`, on one line.
    static func line(_ error: KCAuthError) -> String {
        var line = "error: \(error.message)"
        if let hint = LoginHint.hint(for: error) { line += "; \(hint)" }
        return Sanitize.oneLine(line, limit: 1000)
    }
}
