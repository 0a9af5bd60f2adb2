#if canImport(Glibc)
import Glibc
#endif

/// Standard input as the credential helpers read it, in both programs: everything up to the end,
/// at most `limit` bytes, or — for git's requests (git-credential(1)) — up to the first blank
/// line, so that a helper never waits for an end git does not send.
public enum StandardInputReader {
    /// The bytes read, and whether more than `limit` came (the full program refuses that input).
    public static func read(limit: Int, stopAtBlankLine: Bool) -> (bytes: [UInt8], overLimit: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > limit { return (bytes, true) }
            if stopAtBlankLine, bytes.first == 0x0A || endsWithBlankLine(bytes) { break }
        }
        return (bytes, false)
    }

    static func endsWithBlankLine(_ bytes: [UInt8]) -> Bool {
        let s = bytes.suffix(4)
        return s.suffix(2).elementsEqual([0x0A, 0x0A]) || s.elementsEqual([0x0D, 0x0A, 0x0D, 0x0A])
    }
}
