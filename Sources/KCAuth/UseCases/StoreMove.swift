import KCAuthCore

/// The store a login writes to, with the move between stores when the profile's storage
/// changed: the other persistent store may hold an old copy, removed once the new session is
/// written (`MigratingSecretStore`), and what happened to it is said through `Login.Event`.
struct StoreMove {
    let context: KCAuthContext
    let profile: ResolvedProfile

    /// The other persistent store may hold an old copy: a file left by `--storage file`
    /// (unlinking a missing file costs nothing), or the keyring item of a profile that was on
    /// the keyring until now (not probed for profiles already on file: no keyring needed).
    /// A profile saved on the encrypted store moving elsewhere leaves its sealed file behind
    /// unless removed the same way (removing needs no passphrase).
    func previousKind(_ kind: StorageKind) -> StorageKind? {
        let saved = profile.saved.storage ?? .keyring
        switch kind {
        case .keyring: return saved == .encrypted ? .encrypted : .file
        case .file: return saved == .file ? nil : saved
        case .encrypted: return saved == .encrypted ? nil : saved
        default: return nil  // memory is one-shot: the stored session, if any, is left alone
        }
    }

    func store(_ kind: StorageKind, notify: @escaping @Sendable (Login.Event) -> Void) -> any SecretStore {
        let target = context.noting(context.store(kind, warn: { notify(.warning($0)) }), kind)
        guard let previousKind = previousKind(kind) else { return target }
        let previous = context.store(previousKind)
        return MigratingSecretStore(target: target, previous: previous) { cleanup in
            switch cleanup {
            case .removed:
                notify(.movedStore(from: previous.name, to: kind))
            case .nothingThere:
                break
            case .failed(let error) where previousKind == .keyring && error.code == .storageUnavailable:
                break  // no keyring at all, so no old copy in it: the usual reason to choose a file
            case .failed(let error):
                notify(.oldCopyNotRemoved(from: previous.name, error))
            }
        }
    }
}
