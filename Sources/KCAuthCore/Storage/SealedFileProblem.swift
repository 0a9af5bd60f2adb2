import KCAuthCrypto

/// Why a file of the encrypted store cannot be used, in words that follow its path
/// ("PATH: <problem>"). Every one of them means "do not trust, do not overwrite by accident".
public enum SealedFileProblem: Error, Sendable, Equatable {
    /// Not a kcauth file at all, or cut short: its first line, line count or fields are wrong.
    case malformed(String)
    /// A format version this kcauth does not know (a newer kcauth wrote it).
    case unknownVersion(String)
    /// The header names another profile: the file was copied or moved from that profile.
    case otherProfile(String)
    /// The header names another store (its data key is not this store's).
    case otherStore
    /// The key file asks scrypt for more memory or work than kcauth allows: it was changed, or
    /// not written by kcauth (which never makes such parameters).
    case costBeyondLimits(Scrypt.Refusal)
    /// The tag does not verify: a byte of the header or the ciphertext was changed.
    case tampered

    public var text: String {
        switch self {
        case .malformed(let what): return "is not a valid kcauth encrypted file (\(what)); it may be truncated"
        case .unknownVersion(let v): return "has format version \(v), which this kcauth does not know (a newer kcauth wrote it)"
        case .otherProfile(let p): return "holds the session of profile '\(p)', not this one: it was copied or moved here"
        case .otherStore: return "was sealed under another store's key"
        case .costBeyondLimits(.memory(let bytes)):
            return "asks scrypt for \(bytes >> 20) MiB of memory (128*r*N), more than the \(Scrypt.maximumMemory >> 20) MiB kcauth allows; "
                + "it was changed, or not written by kcauth"
        case .costBeyondLimits(.work(let work)):
            return "asks scrypt for N*r*p = \(work), more work than the \(Scrypt.maximumWork) kcauth allows; "
                + "it was changed, or not written by kcauth"
        case .costBeyondLimits(.outOfRange):
            return "has scrypt parameters out of range (N a power of two from 2 to 2^20, r from 1 to 32, p from 1 to 16); "
                + "it was changed, or not written by kcauth"
        case .tampered: return "failed its integrity check: it was changed or damaged since kcauth wrote it"
        }
    }
}
