import KCAuthCore

/// `unlock`: the encrypted store's data key into the kernel keyring for a while, so every later
/// kcauth of this user reads the store without asking (keyrings(7):
/// the user keyring is shared by the user's processes and outlives this one).
public struct Unlock: Sendable {
    /// How long the store stays unlocked unless the person says otherwise.
    public static let defaultSeconds: UInt32 = 12 * 3600
    /// The longest unlock.
    public static let maximumSeconds: UInt32 = 30 * 86400

    public struct Result: Sendable, Equatable {
        /// When the store locks again.
        public var until: Instant
        /// When it was unlocked (for "in 11 h 59 min").
        public var now: Instant
    }

    let keyring: (any StoreKeyring)?
    let clock: any TimeSource
    /// Where `kcauth prompt` learns that the store is open again (``TokenCache/noteStore(_:locked:)``).
    let cache: (any TokenCache)?

    public init(keyring: (any StoreKeyring)?, clock: any TimeSource, cache: (any TokenCache)? = nil) {
        self.keyring = keyring
        self.clock = clock
        self.cache = cache
    }

    public func run(seconds: UInt32 = defaultSeconds) throws -> Result {
        guard (1...Self.maximumSeconds).contains(seconds) else {
            throw KCAuthError(.usage, "the store can stay unlocked from 1 s to 30 days, not \(seconds) s")
        }
        let keyring = try EncryptedStore.keyring(keyring)
        switch try keyring.keyPresence() {
        case .absent(let keyFile):
            throw EncryptedStore.absent(keyFile)
        case .noKernelKeyring(let why):
            throw KCAuthError(.storageUnavailable, "cannot unlock for other processes: the kernel keyring is unavailable: \(why)",
                              remedy: .passphraseWithoutKernelKeyring)
        case .present:
            let until = try keyring.unlock(seconds: seconds)
            cache?.noteStore(.encrypted, locked: false)
            return Result(until: until, now: clock.instant)
        }
    }
}
