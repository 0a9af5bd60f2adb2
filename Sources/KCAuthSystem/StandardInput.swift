#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// What a credential-helper protocol writes to kcauth's stdin (git's key=value lines, docker's
/// server URL): read with `read(2)`, bounded, and stopped at the protocol's own end.
public enum StandardInput {
    /// Everything up to end of input, or up to an empty line when `stopAtBlankLine` (git's end
    /// of a request), at most `limit` bytes.
    public static func read(limit: Int, stopAtBlankLine: Bool = false) throws -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
            guard bytes.count <= limit else { throw KCAuthError(.usage, "more than \(limit) bytes on standard input") }
            if stopAtBlankLine, bytes.first == 0x0A || endsWithBlankLine(bytes) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func endsWithBlankLine(_ bytes: [UInt8]) -> Bool {
        let s = bytes.suffix(4)
        return s.suffix(2).elementsEqual([0x0A, 0x0A]) || s.elementsEqual([0x0D, 0x0A, 0x0D, 0x0A])
    }
}
