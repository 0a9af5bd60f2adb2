#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// `TokenCache` in `$XDG_RUNTIME_DIR/kcauth/<profile>.token`: the access token only (never the
/// refresh token), so a valid token is served without a D-Bus round trip to the keyring.
///
/// `$XDG_RUNTIME_DIR` is a per-user tmpfs (0700, removed at logout). The directory is 0700 and
/// every file 0600, written atomically, in the contract's schema (``CacheRecord``, which the
/// front reads), and read under the contract's `secret` rule. Each entry is bound to the session
/// it came from (``CacheBinding``), and served only while the profile's ``SessionMark`` — kept
/// by uid, the same for every environment — still names that session: a logout or a new login
/// from a cron job retires the copies a terminal's cache holds. A session deleted behind
/// kcauth's back (for example `secret-tool clear`) is still answered from here until its access
/// token expires or the next `login`/`logout`; `KCAUTH_TOKEN_CACHE=off` turns the cache off.
///
/// The cache exists even where it keeps no entries (no runtime directory, turned off): retiring
/// a session must reach the other environments' caches from there too.
public struct RuntimeTokenCache: TokenCache {
    /// nil: no entries are kept here (no `$XDG_RUNTIME_DIR`, or `KCAUTH_TOKEN_CACHE=off`).
    public let directory: String?

    public init(directory: String?) { self.directory = directory }

    public static func forEnvironment(_ environment: [String: String], paths: Paths) -> RuntimeTokenCache {
        let off = SettingCheck.offWords.contains(SettingCheck.asciiLowercased(environment[SettingsCatalogue.tokenCache.environment!] ?? ""))
        return RuntimeTokenCache(directory: off ? nil : paths.runtimeDirectory)
    }

    public func read(profile: String) -> CachedToken? {
        guard let directory, (try? PrivateFile.checkDirectory(directory, repair: false)) != nil,
              case .bytes(let bytes) = ContractFile.read(file(directory, profile), rule: .secret),
              let record = CacheRecord(bytes),
              SessionMark.admits(record.sessionID, mark: SessionMark.read(profile: profile, binding: Self.binding(of: record), directory: Paths.lockDirectory()))
        else { return nil }
        return CachedToken(record)
    }

    public func write(_ token: CachedToken, profile: String) {
        // The session is the profile's current one: it was just read from (or written to) the store.
        if let session = token.sessionID { SessionMark.note(profile: profile, binding: Self.binding(of: token.record), session: session, directory: Paths.lockDirectory()) }
        guard let directory else { return }
        if let existing = read(profile: profile), existing.record == token.record { return }
        try? AtomicFile.makeDirectory(directory)
        guard (try? PrivateFile.checkDirectory(directory, repair: true)) != nil else { return }
        try? AtomicFile.write(String(decoding: token.record.encoded(), as: UTF8.self), to: file(directory, profile))
    }

    public func remove(profile: String) {
        if let directory { unlink(file(directory, profile)) }
    }

    public func retire(profile: String, session: String?, binding: CacheBinding) {
        if let contract = binding.contract { SessionMark.end(profile: profile, binding: contract, session: session, directory: Paths.lockDirectory()) }
        remove(profile: profile)
    }

    public func glance(profile: String, binding: CachePolicy.Binding?, now: Instant) -> SessionGlance {
        SessionGlance.read(profile: profile, binding: binding, runtimeDirectory: directory, read: ContractFile.inspect,
                           mark: { SessionMark.read(profile: $0, binding: $1, directory: Paths.lockDirectory()) }, now: now.epochSeconds)
    }

    /// The note is a cache entry of the store's: best effort, like every write here.
    public func noteStore(_ storage: StorageKind, locked: Bool) {
        guard let directory else { return }
        let note = StoreLockNote.file(storage: storage.recordName, runtimeDirectory: directory)
        guard locked else { unlink(note); return }
        try? AtomicFile.makeDirectory(directory)
        guard (try? PrivateFile.checkDirectory(directory, repair: true)) != nil else { return }
        try? AtomicFile.write("", to: note)
    }

    /// A record's own binding: the one it is served under (``CachePolicy/belongs(_:to:)``).
    static func binding(of record: CacheRecord) -> CachePolicy.Binding {
        CachePolicy.Binding(storage: record.storage, issuer: record.issuer, clientID: record.clientID)
    }

    private func file(_ directory: String, _ profile: String) -> String { directory + "/" + profile + ".token" }
}
