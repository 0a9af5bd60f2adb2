#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// What a credential-helper protocol writes to kcauth's stdin (git's key=value lines, docker's
/// server URL): read with `read(2)`, bounded, and stopped at the protocol's own end.
public enum StandardInput {
    /// Everything up to end of input, or up to an empty line when `stopAtBlankLine` (git's end
    /// of a request), at most `limit` bytes.
    public static func read(limit: Int, stopAtBlankLine: Bool = false) throws -> String {
        // The contract's reader: the front reads the same bytes before it hands a helper over.
        let (bytes, overLimit) = StandardInputReader.read(limit: limit, stopAtBlankLine: stopAtBlankLine)
        guard !overLimit else { throw KCAuthError(.usage, "more than \(limit) bytes on standard input") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
