#if canImport(Glibc)
import Glibc
#endif

/// The process's real stdout and stderr, written with `write(2)` (unbuffered, and safe under
/// Swift 6 strict concurrency, unlike the C `stdout` global).
public struct StandardConsole: Console {
    public init() {}

    public func out(_ text: String) { Self.write(STDOUT_FILENO, text) }
    public func err(_ text: String) { Self.write(STDERR_FILENO, text) }
    public var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue } else { return } }
            bytes = bytes.dropFirst(n)
        }
    }
}
