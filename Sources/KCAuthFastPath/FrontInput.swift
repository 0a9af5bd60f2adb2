#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// Standard input kept so that a hand-off loses nothing: the bytes the front consumed (read with
/// the contract's ``StandardInputReader``, as the full program reads them) are put back in front
/// of the full program as its stdin.
enum FrontInput {
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
