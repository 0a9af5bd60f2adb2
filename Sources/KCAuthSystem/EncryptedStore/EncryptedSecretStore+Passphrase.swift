#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore
import KCAuthCrypto

/// `kcauth passphrase`: a new passphrase for the same data key, or (`--new-key`) a new data key
/// that every session is re-sealed under.
extension EncryptedSecretStore {
    /// The fewest characters a passphrase typed at the terminal may have: NIST SP 800-63B
    /// §5.1.1.1 asks at least 8 of a secret a person chooses, each Unicode code point counting
    /// as one. A passphrase file is taken as it is: what a program writes there is its business.
    static let minimumPassphraseCharacters = 8

    /// The current passphrase (asked, or the file), then the new one (the file's, or typed
    /// twice), both before the store lock is taken: a person typing never holds up the commands
    /// that write sessions. Then, under the lock, with the key file still the one just opened:
    /// - plain: the same data key wrapped again and `store.key` replaced by one rename, so a
    ///   crash leaves the old passphrase or the new one working; the sessions are not touched;
    /// - `newKey`: a new data key, every session re-sealed under it (``rotate(_:dataKey:passphrase:)``).
    public func changePassphrase(newPassphraseFile: String?, newKey: Bool) throws -> PassphraseChange {
        guard let file = try loadKey(path: keyFile) else {
            throw KCAuthError(.storageUnavailable, "there is no encrypted store yet (\(keyFile))", remedy: .createEncryptedStore)
        }
        var dataKey = try unwrapAsking(file)
        defer { Scrypt.wipe(&dataKey) }
        var passphrase = try newPassphrase(from: newPassphraseFile)
        defer { Scrypt.wipe(&passphrase) }
        return try withStoreLock {
            try settlePending()
            guard let current = try loadKey(path: keyFile), current.render() == file.render() else {
                throw KCAuthError(.storageUnavailable, "the encrypted store \(keyFile) changed while kcauth asked for the passphrases; nothing was written",
                                  hint: "run the command again")
            }
            if newKey { return try rotate(file, dataKey: dataKey, passphrase: passphrase) }
            let rewrapped = try file.rewrapped(dataKey, passphrase: passphrase, kdf: Self.tunedKDF())
            try storageErrors { try AtomicFile.write(rewrapped.render(), to: keyFile) }
            return .rewrapped
        }
    }

    /// A new data key and store id, and every session re-sealed under it, all or nothing
    /// (under the store lock):
    /// 1. each `<profile>.sealed` is opened with the old key and sealed with the new one into
    ///    `<profile>.sealed.next`, and the new key file is written to `store.key.next`; a session
    ///    that does not open, or any failed write, removes them again and changes nothing;
    /// 2. the old key is revoked in the kernel keyring;
    /// 3. the commit: `store.key.next` is renamed over `store.key`;
    /// 4. each `.next` file is renamed over its session file.
    /// Killed before 3, the old store is left (the next writer removes the `.next` files; the
    /// store is locked at worst); killed after it, the new one: a reader takes the `.next` file
    /// whose header names the new store over the old file beside it, and the next writer renames
    /// it into place (``settlePending()``). Never a mix of the two.
    func rotate(_ old: EncryptedStoreKey, dataKey: [UInt8], passphrase: [UInt8]) throws -> PassphraseChange {
        let profiles = try sealedProfiles()
        var (file, key) = try EncryptedStoreKey.create(passphrase: passphrase, kdf: Self.tunedKDF())
        defer { Scrypt.wipe(&key) }
        do {
            for profile in profiles {
                let path = path(for: profile)
                guard let text = try PrivateFile.read(path) else { continue }  // signed out meanwhile
                let plain: String
                do {
                    plain = try SealedSession.open(text, profile: profile, storeID: old.id, dataKey: dataKey)
                } catch {
                    throw KCAuthError(.storageUnavailable, "cannot re-seal \(path) under a new key: it \(error.text)",
                                      remedy: .moveDamagedSessionAway)
                }
                let sealed = try SealedSession.seal(plain, profile: profile, storeID: file.id, dataKey: key)
                try storageErrors { try AtomicFile.write(sealed, to: path + Self.pendingSuffix) }
            }
            try storageErrors { try AtomicFile.write(file.render(), to: keyFile + Self.pendingSuffix) }
        } catch {
            removePending()
            throw error
        }
        // The old key goes before the commit: killed in between, the store is the old one and
        // merely locked; never the new one with the old key still live.
        var unlockedUntil: Instant?
        if case .available = keyring.probe() {
            let description = KernelKeyring.description(storeID: old.id)
            unlockedUntil = (try? keyring.find(description: description))?.expires
            _ = try? keyring.remove(description: description)
        }
        guard rename(keyFile + Self.pendingSuffix, keyFile) == 0 else {
            let error = PrivateFile.failure("replace", keyFile)
            removePending()
            throw error
        }
        syncDirectory()
        self.dataKey.withLock { $0 = (file.id, key) }
        for profile in profiles {
            let path = path(for: profile)
            if rename(path + Self.pendingSuffix, path) != 0, errno != ENOENT {
                // Readers take the `.next` file meanwhile; the next writer renames it.
                continue
            }
        }
        syncDirectory()
        // An unlocked store stays unlocked for the rest of its time, under the new key.
        let left = unlockedUntil.map { $0.seconds(since: Instant(clock: clock.now())) } ?? 0
        let until = left >= 1 ? try? remember(key, file: file, seconds: UInt32(min(left, Double(UInt32.max)))) : nil
        return .newKey(profiles: profiles, unlockedUntil: until)
    }

    /// A new passphrase: the file's (taken as it is), or typed twice at the terminal, with at
    /// least ``minimumPassphraseCharacters`` characters.
    func newPassphrase(from path: String?) throws -> [UInt8] {
        if let path { return try passphrases.readFile(path) }
        guard passphrases.isInteractive else {
            throw KCAuthError(.storageUnavailable, "a new encrypted store needs a passphrase, and nobody is at a terminal to choose one",
                              remedy: .givePassphraseFile)
        }
        for _ in 1...3 {
            guard var first = passphrases.ask("New passphrase for the kcauth encrypted store: ") else { break }
            guard !first.isEmpty else { PassphraseSource.say("The passphrase cannot be empty.\n"); continue }
            let characters = Self.characters(first)
            guard characters >= Self.minimumPassphraseCharacters else {
                Scrypt.wipe(&first)
                PassphraseSource.say("The passphrase has \(characters) characters; it needs at least \(Self.minimumPassphraseCharacters), try again.\n")
                continue
            }
            var second = passphrases.ask("Repeat the passphrase: ") ?? []
            defer { Scrypt.wipe(&second) }
            if first == second { return first }
            Scrypt.wipe(&first)
            PassphraseSource.say("The two passphrases differ, try again.\n")
        }
        throw KCAuthError(.cancelled, "no new passphrase was chosen; nothing was written")
    }

    /// Unicode code points in UTF-8 `bytes` (every byte that does not continue a sequence),
    /// counted without making a String of the secret.
    static func characters(_ bytes: [UInt8]) -> Int {
        bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}
