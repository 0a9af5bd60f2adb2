/// A profile's session at a glance (`kcauth prompt`), from what a warm `kcauth token` reads —
/// the runtime cache record and the session mark — and the store's lock note
/// (``StoreLockNote``): never the store, the network or a person. Both programs compute it here,
/// so the front and `kcauth-full` print the same line.
public struct SessionGlance: Sendable, Equatable {
    /// The states, in the words `{state}` prints (`valid`, `refreshable` and `login_required`
    /// as `kcauth status -o json` says them).
    public enum State: String, Sendable, CaseIterable {
        /// Signed in: the cached access token has not expired.
        case valid
        /// The access token expired, and the record says the session renews without a person.
        case refreshable
        /// Only a sign-in helps: the session ended (its mark), cannot renew, or was never made.
        case loginRequired = "login_required"
        /// The cache does not answer and the store was locked when kcauth last needed it.
        case locked
        /// The cache holds nothing about this session here (after a reboot, before the first
        /// `kcauth token`; another session's copy): only the store knows.
        case unknown
    }

    public var state: State
    /// Whole seconds the access token has left; nil unless `valid` with a known expiry.
    public var expiresIn: Int64?
    /// The signed-in user's display name from the record; nil when unknown.
    public var user: String?

    public init(state: State, expiresIn: Int64? = nil, user: String? = nil) {
        self.state = state
        self.expiresIn = expiresIn
        self.user = user
    }

    /// The decision. `binding`: what the profile binds the cache to (nil: it names no issuer
    /// or client, so it has never signed in); `storeLocked` is asked only when it decides.
    public static func of(record: CacheRecord?, binding: CachePolicy.Binding?, mark: SessionMark.State?,
                          storeLocked: () -> Bool, now: Double) -> SessionGlance {
        // A memory session lives only inside the one `login` that made it.
        guard let binding, binding.storage != StorageKind.memory.recordName else { return SessionGlance(state: .loginRequired) }
        if case .ended? = mark { return SessionGlance(state: .loginRequired) }
        guard let record, CachePolicy.belongs(record, to: binding), SessionMark.admits(record.sessionID, mark: mark) else {
            return SessionGlance(state: storeLocked() ? .locked : .unknown)
        }
        let user = record.user
        // Expired at its expiry, as `kcauth status` judges it (SessionHealth); no expiry: valid.
        guard let expiresAt = record.expiresAt, now >= expiresAt else {
            let left = record.expiresAt.map { Int64(($0 - now).rounded(.down)) }
            return SessionGlance(state: .valid, expiresIn: left, user: user)
        }
        switch record.renewal {
        case nil:
            return SessionGlance(state: storeLocked() ? .locked : .unknown, user: user)
        case .none?:
            return SessionGlance(state: .loginRequired, user: user)
        case .refreshToken?:
            // Keycloak's offline tokens may have no known end: unknown means "try it".
            if let end = record.renewalExpiresAt, now >= end { return SessionGlance(state: .loginRequired, user: user) }
            fallthrough
        case .clientCredentials?:
            return SessionGlance(state: storeLocked() ? .locked : .refreshable, user: user)
        }
    }

    /// Reads what the decision needs, the way both programs do: the runtime directory must be
    /// private (`read` checks a directory), the record is read under the `secret` rule, the mark
    /// by `mark`, the lock note only when it decides. `runtimeDirectory` nil: no cache here.
    public static func read(profile: String, binding: CachePolicy.Binding?, runtimeDirectory: String?,
                            read: (_ path: String, _ rule: FileRule) -> ContractFile.Outcome,
                            mark: SessionMark.Lookup, now: Double) -> SessionGlance {
        guard let binding else { return of(record: nil, binding: nil, mark: nil, storeLocked: { false }, now: now) }
        var record: CacheRecord?
        var directoryUsable = false
        if let directory = runtimeDirectory, case .bytes = read(directory, .secret) {
            directoryUsable = true
            if case .bytes(let bytes) = read(directory + "/" + profile + ".token", .secret) { record = CacheRecord(bytes) }
        }
        let locked = {
            guard directoryUsable, let directory = runtimeDirectory else { return false }
            if case .bytes = read(StoreLockNote.file(storage: binding.storage, runtimeDirectory: directory), .secret) { return true }
            return false
        }
        return of(record: record, binding: binding, mark: mark(profile, binding), storeLocked: locked, now: now)
    }
}
