#if canImport(Glibc)
import Glibc
#endif

/// Why a file kcauth reads was not trusted. Both programs check with ``FileRule`` and read with
/// ``ContractFile``; the full program turns a refusal into one error line (with the fix), the
/// front hands the command to the full program so that the error is said the same way.
public enum FileRefusal: Sendable, Equatable, Error {
    case symbolicLink
    case notRegularFile
    case notDirectory
    /// Owned by a user other than this one (or root, where root is allowed).
    case ownedByAnotherUser(uid: UInt32)
    /// Group or others may write it (mode given).
    case writableByOthers(mode: UInt32)
    /// Group or others may read or write a file that only its owner may use (mode given).
    case accessibleToOthers(mode: UInt32)
    case tooLarge(limit: Int)
    /// A system call failed (errno).
    case failed(errno: Int32)

    /// `0600`, `0644`: how modes are shown in messages.
    public static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
