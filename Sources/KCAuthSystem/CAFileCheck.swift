#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `doctor`'s look at the CA file a profile trusts (`ca_file`, `--ca-file`): a missing or
/// unreadable file is otherwise found only when a request fails, behind whatever else failed
/// first (a host that does not resolve), and a file with no certificate not at all.
enum CAFileCheck {
    static let (id, title) = ("ca-file", "CA file")
    /// Far more than any bundle of CA certificates (Debian's whole bundle is about 220 KiB).
    static let sizeLimit = 4 << 20

    static func run(_ path: String) -> DoctorCheck {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return failed(path, "cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return failed(path, "is not a regular file") }
        let tooLarge = KCAuthError(.configuration, "\(path) is larger than \(sizeLimit >> 20) MiB")
        guard info.st_size <= sizeLimit, let bytes = try? AtomicFile.readBytes(fd, path: path, limit: sizeLimit, tooLarge: { tooLarge })
        else { return failed(path, "cannot be read whole (at most \(sizeLimit >> 20) MiB)") }
        // RFC 7468 §2: the encapsulation boundary of a certificate.
        let count = occurrences(of: Array("-----BEGIN CERTIFICATE-----".utf8), in: bytes)
        guard count > 0 else { return failed(path, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
        return .pass(id, title, "\(path): \(count) PEM certificate" + (count == 1 ? "" : "s"))
    }

    static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> Int {
        guard bytes.count >= needle.count else { return 0 }
        var count = 0
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) {
                count += 1
                i += needle.count
            } else {
                i += 1
            }
        }
        return count
    }

    private static func failed(_ path: String, _ what: String) -> DoctorCheck {
        DoctorCheck(id, title, .fail, "\(path) \(what)", remedy: .readableCAFile)
    }
}
