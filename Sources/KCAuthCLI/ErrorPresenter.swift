import KCAuthCore

/// Turns an error into one line on stderr (`error: what happened; what to do`) and an exit code.
enum ErrorPresenter {
    static func present(_ error: KCAuthError, on console: any Console) -> Int32 {
        var line = "error: \(error.message)"
        if let hint = error.hint { line += "; \(hint)" }
        console.err(Sanitize.oneLine(line, limit: 1000) + "\n")
        return ExitStatus.of(error.code).code
    }
}
