#if canImport(Glibc)
import Glibc
#endif

/// All of a string to file descriptor 1, retrying short writes and EINTR; a failed write is
/// ignored, as the full program's console does (the exit status stays 0).
enum StandardOutput {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }
}
