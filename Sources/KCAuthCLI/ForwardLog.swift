import Glibc
import KCAuthContract
import KCAuthCore

/// `$XDG_STATE_HOME/kcauth/forward.log` on the laptop: one line per answer a forward gave (time,
/// destination, profile, scope, what was handed out or why not). Never a token: the line is
/// built from names only.
struct ForwardLog {
    let path: String

    init(environment: [String: String]) {
        path = ContractPaths { environment[$0] }.stateDirectory + "/forward.log"
    }

    func append(destination: String, profile: String, scope: String?, outcome: String, now: Instant) {
        let directory = String(path[..<path.lastIndex(of: "/")!])
        Self.makeDirectories(directory)
        let line = "\(now.rfc3339) destination=\(Self.field(destination)) profile=\(Self.field(profile)) "
            + "scope=\(Self.field(scope ?? "-")) \(outcome)\n"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }

    /// One word: a destination or scope with spaces or control characters stays on its line.
    static func field(_ s: String) -> String {
        let cleaned = Sanitize.oneLine(s, limit: 200)
        return cleaned.contains(" ") ? "\"" + cleaned + "\"" : cleaned
    }

    static func makeDirectories(_ path: String) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            mkdir(prefix, 0o700)
        }
    }
}
