#if canImport(Glibc)
import Glibc
#endif

/// Standard input as the credential helpers read it, kept so that a hand-off loses nothing: the
/// bytes the front consumed are put back in front of the full program as its stdin (an unlinked
/// private file), read the same way (`StandardInput` in the full program: up to the limit, stopping after
/// a blank line for git).
enum FrontInput {
    /// The bytes read, or nil when more than `limit` came (the full program refuses that).
    static func read(limit: Int, stopAtBlankLine: Bool) -> (bytes: [UInt8], overLimit: Bool) {
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

    /// Makes `bytes` the process's standard input (an unlinked private file, read from its
    /// start), so the full program reads what the front took. False when that cannot be done;
    /// the caller then must not hand off silently. (`mkstemp`: O_EXCL, mode 0600, removed from the
    /// directory at once; memfd_create is not reachable from Swift's Glibc module.)
    static func putBack(_ bytes: [UInt8]) -> Bool {
        var template = Array("/tmp/kcauth-stdin.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return false }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { close(fd); return false }
            done += n
        }
        guard lseek(fd, 0, SEEK_SET) == 0, dup2(fd, STDIN_FILENO) == STDIN_FILENO else { close(fd); return false }
        close(fd)
        return true
    }
}
