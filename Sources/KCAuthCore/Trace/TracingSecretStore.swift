/// A store with a trace: each call (check, read, write, delete) with its profile, its outcome
/// and its time — the keyring's D-Bus round trips, the encrypted store's unlock. The session
/// itself is never shown: a read says how many bytes it found.
public struct TracingSecretStore: SecretStore, UnlockPrompting, StoreStateDescribing {
    let base: any SecretStore
    let trace: any TraceSink
    let clock: any TimeSource

    public init(_ base: any SecretStore, trace: any TraceSink, clock: any TimeSource) {
        self.base = base
        self.trace = trace
        self.clock = clock
    }

    public var name: String { base.name }

    public func checkAvailable() throws {
        try trace.timed(clock, { try base.checkAvailable() }) { event("store.check", nil, $0.map { _ in [] }) }
    }

    public func read(profile: String) throws -> String? {
        try trace.timed(clock, { try base.read(profile: profile) }) { result in
            event("store.read", profile, result.map { found in [TraceField("found", found.map { .text("\($0.utf8.count) bytes") } ?? .flag(false))] })
        }
    }

    public func write(_ secret: String, for key: SecretKey) throws {
        try trace.timed(clock, { try base.write(secret, for: key) }) { result in
            event("store.write", key.profile, result.map { _ in [TraceField("bytes", .int(secret.utf8.count))] })
        }
    }

    @discardableResult
    public func delete(profile: String) throws -> Bool {
        try trace.timed(clock, { try base.delete(profile: profile) }) { result in
            event("store.delete", profile, result.map { [TraceField("existed", .flag($0))] })
        }
    }

    public func reportingOnly() -> any SecretStore {
        TracingSecretStore(base.withoutUnlockPrompts(), trace: trace, clock: clock)
    }

    public var encryptedState: EncryptedStoreState? { (base as? any StoreStateDescribing)?.encryptedState }

    private func event(_ name: String, _ profile: String?, _ result: Result<[TraceField], any Error>) -> TraceEvent {
        var fields = [TraceField("store", .text(base.name))]
        if let profile { fields.append(TraceField("profile", .text(profile))) }
        switch result {
        case .success(let more): fields += more
        case .failure(let error): fields.append(TraceField("error", .text(KCAuthError.wrapping(error).message)))
        }
        return TraceEvent(name, fields)
    }
}
