import Synchronization

/// The console of a command run inside another (`doctor --bundle` runs `token`): its stdout —
/// the token — is dropped unread, its stderr kept for the report.
final class CapturedErrors: Console {
    private let errors = Mutex("")

    func out(_ text: String) {}
    func err(_ text: String) { errors.withLock { $0 += text } }
    var stderrIsTTY: Bool { false }

    var text: String { errors.withLock { $0 } }
}
