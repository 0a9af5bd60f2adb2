/// A failure a command has already reported in full on its own output (`status`, `doctor`):
/// only the exit status is left to give, with no second `error:` line after the report.
struct ReportedFailure: Error {
    let status: ExitStatus
}
