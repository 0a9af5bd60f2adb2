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
    /// The data key this process already has, with the id of the store it opens (a key
    /// rotation by another process gives the store a new id).
    let dataKey = Mutex<(storeID: String, key: [UInt8])?>(nil)
    /// False for `status` and `doctor`: they report a locked store, they never ask.
    let mayAsk: Bool
    /// Where the store says where its key came from and what unwrapping it cost (`--debug`).
    let trace: any TraceSink

    /// How long `unlock` and a login that creates the store keep the key: 12 h.
    public static let defaultUnlockSeconds: UInt32 = 12 * 3600
    /// Slows down guessing at the terminal and in scripts alike.
    static let wrongPassphraseDelay: UInt32 = 1

    public init(directory: String, keyring: KernelKeyring = KernelKeyring(), passphrases: PassphraseSource,
                clock: any TimeSource, notice: @escaping @Sendable (EncryptedStoreNotice) -> Void = { _ in }, mayAsk: Bool = true,
                trace: any TraceSink = NoTrace()) {
        self.mayAsk = mayAsk
        self.trace = trace
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
        guard let sealed = try PrivateFile.read(path) else { return nil }
        guard let key = try loadKey(path: keyFile) else {
            throw KCAuthError(.storageUnavailable, "\(path) has no key file beside it (\(keyFile) is missing)",
                              hint: "restore \(keyFile) from a backup, or remove \(path) and log in again")
        }
        let (text, file) = try sessionText(sealed, profile: profile, key: key)
        let dataKey = try unlockedKey(file)
        do {
            return try SealedSession.open(text, profile: profile, storeID: file.id, dataKey: dataKey)
        } catch {
            throw problem(path, error)
        }
    }

    public func write(_ secret: String, for key: SecretKey) throws {
        try prepareDirectory()
        try withStoreLock {
            try settlePending()
            let (file, dataKey) = try openOrCreate()
            let path = path(for: key.profile)
            try confirmReplacing(path, profile: key.profile, storeID: file.id, dataKey: dataKey)
            let sealed = try SealedSession.seal(secret, profile: key.profile, storeID: file.id, dataKey: dataKey)
            try storageErrors { try AtomicFile.write(sealed, to: path) }
        }
    }

    /// Under the store lock, so that a key rotation cannot seal a copy of a session being
    /// signed out and rename it back into place.
    @discardableResult
    public func delete(profile: String) throws -> Bool {
        guard access(directory, F_OK) == 0 else { return false }
        return try withStoreLock {
            // A re-sealed copy a key rotation left behind (killed before it renamed it) goes too.
            let pending = try PrivateFile.remove(path(for: profile) + Self.pendingSuffix, in: directory)
            return try PrivateFile.remove(path(for: profile), in: directory) || pending
        }
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

    /// `kcauth lock`: revokes every kcauth data key of the user in the kernel keyring, not only
    /// this store's: the key file need not be there, nor readable (a `store.key` moved away and
    /// brought back must not find its key still live). Returns how many keys were live.
    public func lock() throws -> Int {
        dataKey.withLock { $0 = nil }
        if case .unavailable = keyring.probe() { return 0 }
        return try keyring.revokeAll(prefix: KernelKeyring.dataKeyPrefix)
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
        dataKey.withLock { $0 = (file.id, key) }
        // Unlocked for the default time however the passphrase came (typed, or from a file in
        // CI): the commands that follow the login find the key, as after `kcauth unlock`.
        if case .unavailable(let why) = keyring.probe() {
            notice(.createdWithoutKernelKeyring(keyFile: keyFile, why: why))
        } else {
            do {
                let until = try remember(key, file: file, seconds: Self.defaultUnlockSeconds)
                notice(.createdUnlocked(keyFile: keyFile, until: until, passphraseFile: passphrases.file))
            } catch {
                notice(.createdWithoutKernelKeyring(keyFile: keyFile, why: KCAuthError.wrapping(error).message))
            }
        }
        return (file, key)
    }

    /// The data key for `file`, from this process, the kernel keyring, the passphrase file or the
    /// terminal, in that order.
    func unlockedKey(_ file: EncryptedStoreKey) throws -> [UInt8] {
        if let known = dataKey.withLock({ $0 }), known.storeID == file.id { return known.key }
        let found = try trace.timed(clock, {
            keyring.probe() == .available ? try keyring.find(description: KernelKeyring.description(storeID: file.id)) : nil
        }) { result in
            let key = switch result {
            case .success(.some): "found"
            case .success(.none): "not found"
            case .failure(let error): KCAuthError.wrapping(error).message
            }
            return TraceEvent("encrypted-store.kernel-keyring", ("store", .text(file.id)), ("key", .text(key)))
        }
        if let entry = found {
            dataKey.withLock { $0 = (file.id, entry.key) }
            return entry.key
        }
        let keyringWorks = keyring.probe() == .available
        let key = try unwrapAsking(file)
        dataKey.withLock { $0 = (file.id, key) }
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
            if let key = try tracedUnwrap(file, passphrase, from: "file \(path)") { return key }
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
            if let key = try tracedUnwrap(file, passphrase, from: "terminal") { return key }
            sleep(Self.wrongPassphraseDelay)
            if attempt < 3 { PassphraseSource.say("Wrong passphrase, try again.\n") }
        }
        throw KCAuthError(.storageLocked, "wrong passphrase for the encrypted store \(keyFile)", hint: "nothing was changed")
    }

    /// `file.unwrap` (scrypt, then AES-GCM), traced with where the passphrase came from, never
    /// the passphrase.
    private func tracedUnwrap(_ file: EncryptedStoreKey, _ passphrase: [UInt8], from source: String) throws -> [UInt8]? {
        try trace.timed(clock, { try file.unwrap(passphrase: passphrase) }) { result in
            TraceEvent("encrypted-store.unwrap", ("passphrase_from", .text(source)),
                       ("opened", .flag(((try? result.get()) ?? nil) != nil)))
        }
    }

    func remember(_ key: [UInt8], file: EncryptedStoreKey, seconds: UInt32) throws -> Instant {
        let until = Instant(clock: clock.now() + Double(seconds))
        try keyring.store(key, description: KernelKeyring.description(storeID: file.id), seconds: seconds, expires: until)
        trace.emit(TraceEvent("encrypted-store.unlocked", ("store", .text(file.id)), ("kernel_keyring_until", .text(until.rfc3339))))
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

    /// Creating the store, writing or deleting a session and changing the passphrase or the key
    /// hold `flock` on `store.lock`, so two logins never create two data keys (the second would
    /// orphan the first's sessions) and a key rotation sees no session come or go.
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

    func storageErrors(_ body: () throws -> Void) throws {
        do { try body() } catch var error as KCAuthError {
            error.code = .storageUnavailable
            throw error
        }
    }
}

extension EncryptedSecretStore: UnlockPrompting, StoreStateDescribing {
    public func reportingOnly() -> any SecretStore {
        EncryptedSecretStore(directory: directory, keyring: keyring, passphrases: passphrases, clock: clock, notice: notice, mayAsk: false,
                             trace: trace)
    }

    public var encryptedState: EncryptedStoreState? { try? state() }
}
