#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Standard input as the place a person answers a question (the first run of `login`). Lines are read byte by byte with
/// `read(2)` (no buffering that could swallow what a later reader needs) and capped, so a
/// runaway paste cannot grow without bound.
public struct TerminalQuestionInput: TerminalInput {
    public static let lineLimit = 4096

    public init() {}

    public var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    public func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { break }
            if bytes.count < Self.lineLimit { bytes.append(byte) }
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
