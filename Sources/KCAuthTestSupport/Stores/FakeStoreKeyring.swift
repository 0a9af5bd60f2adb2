import Foundation
import KCAuthCore

/// The encrypted store's key and a kernel keyring, in memory: a store exists or not, a passphrase
/// opens it, and an unlock lasts until the clock passes it.
public final class FakeStoreKeyring: StoreKeyring, @unchecked Sendable {
    private let mutex = NSLock()
    private let clock: any TimeSource
    private var created: Bool
    private var unlockedUntil: Instant?
    private var passphrases: [String] = []
    /// The passphrase the person (or the file) gives; nil: nobody answers.
    public var given: String?
    public var passphrase: String
    /// Why there is no kernel keyring here; nil: there is one.
    public var noKernelKeyring: String?

    public init(clock: any TimeSource, created: Bool = true, passphrase: String = "correct horse", given: String? = "correct horse") {
        self.clock = clock
        self.created = created
        self.passphrase = passphrase
        self.given = given
    }

    /// Unlocked now (not revoked and not expired).
    public var isUnlocked: Bool { mutex.withLock { unlockedUntil.map { clock.instant < $0 } ?? false } }

    public func keyPresence() throws -> StoreKeyPresence {
        mutex.withLock {
            guard created else { return .absent(keyFile: "/state/kcauth/store.key") }
            return noKernelKeyring.map(StoreKeyPresence.noKernelKeyring) ?? .present
        }
    }

    public func unlock(seconds: UInt32) throws -> Instant {
        try mutex.withLock {
            try open()
            let until = Instant(clock: clock.instant.epochSeconds + Double(seconds))
            unlockedUntil = until
            return until
        }
    }

    public func lock() throws -> Int {
        mutex.withLock {
            defer { unlockedUntil = nil }
            return unlockedUntil.map { clock.instant < $0 ? 1 : 0 } ?? 0
        }
    }

    /// The profiles a new key re-seals.
    public var profiles: [String] = ["default"]

    public func changePassphrase(newPassphraseFile: String?, newKey: Bool) throws -> PassphraseChange {
        try mutex.withLock {
            try open()
            passphrase = newPassphraseFile.map { "from \($0)" } ?? "asked"
            guard newKey else { return .rewrapped }
            let until = unlockedUntil.flatMap { clock.instant < $0 ? $0 : nil }
            return .newKey(profiles: profiles, unlockedUntil: until)
        }
    }

    private func open() throws {
        guard created else { throw KCAuthError(.storageUnavailable, "there is no encrypted store yet") }
        guard let given else { throw KCAuthError(.storageLocked, "the encrypted store is locked and nobody can type its passphrase") }
        guard given == passphrase else { throw KCAuthError(.storageLocked, "wrong passphrase for the encrypted store") }
    }
}
