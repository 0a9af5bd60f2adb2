#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore
import KCAuthCrypto
import Synchronization

/// `SecretStore` for machines without a Secret Service: each profile's session sealed
/// with AES-256-GCM in `$XDG_STATE_HOME/kcauth/<profile>.sealed`, under one random data key that
/// `store.key` keeps wrapped by a key scrypt derives from the passphrase.
///
/// The data key is found, in order: already in this process; in the kernel's user keyring
/// (`kcauth unlock`: every process of the user reads it, until it times out); from the
/// passphrase file; from a person at the terminal. Without any of them the store is locked, and
/// the error says to run `kcauth unlock` (exit 5). A file that fails its checks is never
/// overwritten by the failed read, and a new login asks before replacing it.
public final class EncryptedSecretStore: SecretStore {
    public let name = "encrypted"
    public let directory: String
    let keyring: KernelKeyring
    let passphrases: PassphraseSource
    let clock: any TimeSource
    /// One-line notes for the person (the store was created and unlocked, no kernel keyring).
    let notice: @Sendable (EncryptedStoreNotice) -> Void
    private let dataKey = Mutex<[UInt8]?>(nil)
    /// False for `status` and `doctor`: they report a locked store, they never ask.
    let mayAsk: Bool

    /// How long `unlock` and a login that creates the store keep the key: 12 h.
    public static let defaultUnlockSeconds: UInt32 = 12 * 3600
    /// Slows down guessing at the terminal and in scripts alike.
    static let wrongPassphraseDelay: UInt32 = 1

    public init(directory: String, keyring: KernelKeyring = KernelKeyring(), passphrases: PassphraseSource,
                clock: any TimeSource, notice: @escaping @Sendable (EncryptedStoreNotice) -> Void = { _ in }, mayAsk: Bool = true) {
        self.mayAsk = mayAsk
        self.directory = directory
        self.keyring = keyring
        self.passphrases = passphrases
        self.clock = clock
        self.notice = notice
    }

    public var keyFile: String { directory + "/store.key" }
    public func path(for profile: String) -> String { directory + "/" + profile + ".sealed" }

    // MARK: SecretStore

    /// Before a login signs in: the store exists and is open, so the passphrase is asked (or a
    /// new one chosen) before the browser opens, not after.
    public func checkAvailable() throws {
        try prepareDirectory()
        _ = try withStoreLock { try openOrCreate() }
    }

    public func read(profile: String) throws -> String? {
        guard access(directory, F_OK) == 0 else { return nil }
        try PrivateFile.checkDirectory(directory, repair: false)
        let path = path(for: profile)
        guard let text = try PrivateFile.read(path) else { return nil }
        guard let key = try loadKey(path: keyFile) else {
            throw KCAuthError(.storageUnavailable, "\(path) has no key file beside it (\(keyFile) is missing)",
                              hint: "restore \(keyFile) from a backup, or remove \(path) and log in again")
        }
        do { try SealedSession.checkHeader(text, profile: profile, storeID: key.id) } catch { throw problem(path, error) }
        let dataKey = try unlockedKey(key)
        do {
            return try SealedSession.open(text, profile: profile, storeID: key.id, dataKey: dataKey)
        } catch {
            throw problem(path, error)
        }
    }

    public func write(_ secret: String, for key: SecretKey) throws {
        try prepareDirectory()
        try withStoreLock {
            let (file, dataKey) = try openOrCreate()
            let path = path(for: key.profile)
            try confirmReplacing(path, profile: key.profile, storeID: file.id, dataKey: dataKey)
            let sealed = try SealedSession.seal(secret, profile: key.profile, storeID: file.id, dataKey: dataKey)
            try storageErrors { try AtomicFile.write(sealed, to: path) }
        }
    }

    @discardableResult
    public func delete(profile: String) throws -> Bool {
        try PrivateFile.remove(path(for: profile), in: directory)
    }

    // MARK: Unlock, lock, passphrase

    /// What `status` and `doctor` say about the store.
    public func state() throws -> EncryptedStoreState {
        guard let file = try loadKey(path: keyFile) else { return .absent }
        if case .unavailable(let why) = keyring.probe() { return .keyringUnavailable(why) }
        guard let entry = try keyring.find(description: KernelKeyring.description(storeID: file.id)) else { return .locked }
        return .unlocked(until: entry.expires)
    }

    /// `kcauth unlock`: asks for the passphrase (or reads the file) and leaves the data key in
    /// the kernel keyring for `seconds`. Returns when it expires.
    public func unlock(seconds: UInt32) throws -> Instant {
        guard let file = try loadKey(path: keyFile) else {
            throw KCAuthError(.storageUnavailable, "there is no encrypted store yet (\(keyFile))", remedy: .createEncryptedStore)
        }
        if case .unavailable(let why) = keyring.probe() {
            throw KCAuthError(.storageUnavailable, "cannot unlock for other processes: the kernel keyring is unavailable: \(why)",
                              remedy: .passphraseWithoutKernelKeyring)
        }
        var dataKey = try unwrapAsking(file)
        defer { Scrypt.wipe(&dataKey) }
        return try remember(dataKey, file: file, seconds: seconds)
    }

    /// `kcauth lock`: revokes the key in the kernel keyring; returns whether it was unlocked.
    public func lock() throws -> Bool {
        guard let file = try loadKey(path: keyFile) else { return false }
        if case .unavailable = keyring.probe() { return false }
        return try keyring.remove(description: KernelKeyring.description(storeID: file.id))
    }

    /// `kcauth passphrase`: the old passphrase (asked, or the file), then the new one twice; the
    /// same data key is wrapped again and `store.key` replaced by rename, so a crash leaves the
    /// old file or the new one. The sessions are not touched.
    public func changePassphrase(newPassphraseFile: String?) throws {
        try withStoreLock {
            guard let file = try loadKey(path: keyFile) else {
                throw KCAuthError(.storageUnavailable, "there is no encrypted store yet (\(keyFile))", remedy: .createEncryptedStore)
            }
            var dataKey = try unwrapAsking(file)
            defer { Scrypt.wipe(&dataKey) }
            var passphrase = try newPassphrase(from: newPassphraseFile)
            defer { Scrypt.wipe(&passphrase) }
            let rewrapped = try file.rewrapped(dataKey, passphrase: passphrase, kdf: Self.tunedKDF())
            try storageErrors { try AtomicFile.write(rewrapped.render(), to: keyFile) }
        }
    }

    // MARK: The data key

    /// The store's key file and its data key: opened (keyring, file, terminal) or, when there is
    /// no store yet, created with a new passphrase and unlocked for the default time.
    func openOrCreate() throws -> (EncryptedStoreKey, [UInt8]) {
        if let file = try loadKey(path: keyFile) { return (file, try unlockedKey(file)) }
        var passphrase = try newPassphrase(from: passphrases.file)
        defer { Scrypt.wipe(&passphrase) }
        let (file, key) = try EncryptedStoreKey.create(passphrase: passphrase, kdf: Self.tunedKDF())
        try storageErrors { try AtomicFile.write(file.render(), to: keyFile) }
        dataKey.withLock { $0 = key }
        if passphrases.file == nil {
            if case .unavailable(let why) = keyring.probe() {
                notice(.createdWithoutKernelKeyring(keyFile: keyFile, why: why))
            } else if let until = try? remember(key, file: file, seconds: Self.defaultUnlockSeconds) {
                notice(.createdUnlocked(keyFile: keyFile, until: until))
            }
        } else {
            notice(.createdFromFile(keyFile: keyFile, passphraseFile: passphrases.file!))
        }
        return (file, key)
    }

    /// The data key for `file`, from this process, the kernel keyring, the passphrase file or the
    /// terminal, in that order.
    func unlockedKey(_ file: EncryptedStoreKey) throws -> [UInt8] {
        if let key = dataKey.withLock({ $0 }) { return key }
        if case .available = keyring.probe(),
           let entry = try keyring.find(description: KernelKeyring.description(storeID: file.id)) {
            dataKey.withLock { $0 = entry.key }
            return entry.key
        }
        let keyringWorks = keyring.probe() == .available
        let key = try unwrapAsking(file)
        dataKey.withLock { $0 = key }
        if passphrases.file == nil, keyringWorks {
            notice(.askedForThisCommandOnly)
        }
        return key
    }

    /// Unwraps with the passphrase file, else at the terminal (three tries). Wrong: a delay, then
    /// exit 5 with the key file untouched.
    func unwrapAsking(_ file: EncryptedStoreKey) throws -> [UInt8] {
        if let path = passphrases.file {
            var passphrase = try passphrases.readFile(path)
            defer { Scrypt.wipe(&passphrase) }
            if let key = try file.unwrap(passphrase: passphrase) { return key }
            sleep(Self.wrongPassphraseDelay)
            throw KCAuthError(.storageLocked, "the passphrase in \(path) does not open the encrypted store \(keyFile)",
                              hint: "check the file; nothing was changed")
        }
        guard passphrases.isInteractive, mayAsk else {
            throw KCAuthError(.storageLocked, "the encrypted store \(keyFile) is locked",
                              remedy: .unlockStore)
        }
        if case .unavailable(let why) = keyring.probe() {
            notice(.askingWithoutKernelKeyring(why: why))
        }
        for attempt in 1...3 {
            guard var passphrase = passphrases.ask("Passphrase for the kcauth encrypted store: ") else { break }
            defer { Scrypt.wipe(&passphrase) }
            if let key = try file.unwrap(passphrase: passphrase) { return key }
            sleep(Self.wrongPassphraseDelay)
            if attempt < 3 { PassphraseSource.say("Wrong passphrase, try again.\n") }
        }
        throw KCAuthError(.storageLocked, "wrong passphrase for the encrypted store \(keyFile)", hint: "nothing was changed")
    }

    /// A new passphrase: the file's, or typed twice at the terminal.
    func newPassphrase(from path: String?) throws -> [UInt8] {
        if let path { return try passphrases.readFile(path) }
        guard passphrases.isInteractive else {
            throw KCAuthError(.storageUnavailable, "a new encrypted store needs a passphrase, and nobody is at a terminal to choose one",
                              remedy: .givePassphraseFile)
        }
        for _ in 1...3 {
            guard var first = passphrases.ask("New passphrase for the kcauth encrypted store: ") else { break }
            guard !first.isEmpty else { PassphraseSource.say("The passphrase cannot be empty.\n"); continue }
            var second = passphrases.ask("Repeat the passphrase: ") ?? []
            defer { Scrypt.wipe(&second) }
            if first == second { return first }
            Scrypt.wipe(&first)
            PassphraseSource.say("The two passphrases differ, try again.\n")
        }
        throw KCAuthError(.cancelled, "no new passphrase was chosen; nothing was written")
    }

    func remember(_ key: [UInt8], file: EncryptedStoreKey, seconds: UInt32) throws -> Instant {
        let until = Instant(clock: clock.now() + Double(seconds))
        try keyring.store(key, description: KernelKeyring.description(storeID: file.id), seconds: seconds, expires: until)
        return until
    }

    /// The scrypt cost for a new key file: N doubled from 2^15 while one derivation stays under
    /// about 0.3 s here, measured once at 2^14 and extrapolated (scrypt is linear in N).
    static func tunedKDF() -> Scrypt {
        let probe = Scrypt(n: 1 << 14, r: 8, p: 1)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        _ = try? probe.deriveKey(passphrase: Array("calibration".utf8), salt: Array(repeating: 0, count: 16))
        clock_gettime(CLOCK_MONOTONIC, &end)
        let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        var n: UInt64 = 1 << 15
        while n < 1 << 20, seconds * Double(n * 2) / Double(1 << 14) <= 0.3 { n *= 2 }
        return Scrypt(n: n, r: 8, p: 1)
    }

    // MARK: Files

    func loadKey(path: String) throws -> EncryptedStoreKey? {
        guard access(directory, F_OK) == 0 else { return nil }
        try PrivateFile.checkDirectory(directory, repair: false)
        guard let text = try PrivateFile.read(path) else { return nil }
        do { return try EncryptedStoreKey.parse(text) } catch { throw problem(path, error) }
    }

    /// A session file that exists but does not open (damaged, another profile's, another
    /// store's) is replaced only when a person says so.
    func confirmReplacing(_ path: String, profile: String, storeID: String, dataKey: [UInt8]) throws {
        guard let text = try PrivateFile.read(path) else { return }
        do {
            _ = try SealedSession.open(text, profile: profile, storeID: storeID, dataKey: dataKey)
        } catch {
            let why = "\(path) \(error.text)"
            guard passphrases.isInteractive else {
                throw KCAuthError(.storageUnavailable, why, hint: "move it away (it may be evidence of tampering), then log in again")
            }
            PassphraseSource.say("\(why).\nReplace it with the new session? [y/N] ")
            let answer = TerminalQuestionInput().readLine() ?? ""
            guard answer.lowercased() == "y" || answer.lowercased() == "yes" else {
                throw KCAuthError(.cancelled, "kept \(path) as it is; the new session was not stored")
            }
        }
    }

    func problem(_ path: String, _ problem: SealedFileProblem) -> KCAuthError {
        KCAuthError(.storageUnavailable, "\(path) \(problem.text)",
                    remedy: .moveDamagedSessionAway)
    }

    func prepareDirectory() throws {
        try storageErrors { try AtomicFile.makeDirectory(directory) }
        try PrivateFile.checkDirectory(directory, repair: true)
    }

    /// Creating the store and changing the passphrase hold `flock` on `store.lock`, so two
    /// logins never create two data keys (the second would orphan the first's sessions).
    func withStoreLock<T>(_ body: () throws -> T) throws -> T {
        let path = directory + "/store.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw PrivateFile.failure("open", path) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw PrivateFile.failure("lock", path) }
        }
        return try body()
    }

    private func storageErrors(_ body: () throws -> Void) throws {
        do { try body() } catch var error as KCAuthError {
            error.code = .storageUnavailable
            throw error
        }
    }
}

extension EncryptedSecretStore: UnlockPrompting, StoreStateDescribing {
    public func reportingOnly() -> any SecretStore {
        EncryptedSecretStore(directory: directory, keyring: keyring, passphrases: passphrases, clock: clock, notice: notice, mayAsk: false)
    }

    public var encryptedState: EncryptedStoreState? { try? state() }
}
