import Glibc
import KCAuthCore

/// Paste-back's input: lines from a terminal on stdin, read only when `poll` says a read will
/// not block. The descriptor is left in blocking mode: O_NONBLOCK would be set on the terminal's
/// shared open file description and could break the shell after kcauth exits.
// @unchecked: one login reads it, from the listener's thread only.
public final class TerminalLineReader: LineInput, @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    /// stdin, when it is a terminal; nil otherwise (a pipe or /dev/null is not a person).
    public static func standardInput() -> TerminalLineReader? {
        isatty(STDIN_FILENO) == 1 ? TerminalLineReader(fd: STDIN_FILENO) : nil
    }

    /// For tests: any descriptor (a pipe).
    public init(fd: Int32) { self.fd = fd }

    public func availableLines() -> [String]? {
        guard !ended else { return nil }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 0)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            if p.revents & Int16(POLLIN) == 0 { ended = true; break }  // POLLHUP/POLLERR/POLLNVAL alone
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { ended = true; break }
            buffer += chunk[..<n]
            // A line longer than any address is kept only up to the limit (then judged too long).
            if buffer.count > 4 * PastedRedirect.maxLength, !buffer.contains(10) {
                buffer = Array(buffer.prefix(PastedRedirect.maxLength + 1))
            }
        }
        var lines: [String] = []
        while let end = buffer.firstIndex(where: { $0 == 10 || $0 == 13 }) {
            lines.append(String(decoding: buffer[..<end], as: UTF8.self))
            buffer.removeSubrange(...end)
        }
        if ended, !buffer.isEmpty {
            lines.append(String(decoding: buffer, as: UTF8.self))
            buffer = []
        }
        if ended, lines.isEmpty { return nil }
        return lines
    }
}
