import Glibc
import KCAuthCore

/// A started launcher, watched for an early failure (`LaunchedBrowser`). When it fails and more
/// candidates remain (the next `$BROWSER` entry, the next WSL launcher), the next one is started
/// and watched in its place; `failure()` reports only when none is left.
// @unchecked: one login polls it, from the listener's thread only.
final class LauncherProcess: LaunchedBrowser, @unchecked Sendable {
    private var pid: pid_t
    private var name: String
    private var remaining: [[String]]
    private var causes: [String] = []
    private var outcome: KCAuthError?
    private var done = false
    private let start: ([String]) throws -> pid_t

    init(pid: pid_t, name: String, remaining: [[String]], start: @escaping ([String]) throws -> pid_t) {
        self.pid = pid
        self.name = name
        self.remaining = remaining
        self.start = start
    }

    func failure() -> KCAuthError? {
        while !done {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == 0 { return nil }  // still running
            if r < 0 {
                if errno == EINTR { continue }
                done = true  // no longer our child: nothing to report
                return nil
            }
            let signal = status & 0x7f, code = (status >> 8) & 0xff
            if signal == 0 && code == 0 { done = true; return nil }
            causes.append("\(name) " + (signal == 0 ? "exited with status \(code)" : "was killed by signal \(signal)"))
            startNext()
        }
        return outcome
    }

    /// Starts the next candidate that can be started, or ends with the failure.
    private func startNext() {
        while !remaining.isEmpty {
            let argv = remaining.removeFirst()
            do {
                pid = try start(argv)
                name = argv[0]
                return
            } catch {
                causes.append("\(argv[0]): \((error as? KCAuthError)?.cause ?? "\(error)")")
            }
        }
        done = true
        outcome = KCAuthError(.configuration, "the browser launcher failed: \(causes.joined(separator: "; "))",
                              remedy: .openAddressOrNameBrowser)
    }
}
