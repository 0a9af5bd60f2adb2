internal import CLibSecret
import KCAuthCore

/// The libsecret calls of one store operation. They all share the operation's GCancellable, so
/// the deadline bounds the whole operation, not each call separately.
///
/// Every method throws `LibSecretFailure` for a GError; the store maps it to a `KCAuthError`.
struct LibSecretCalls {
    let deadline: LibSecretDeadline
    private var cancellable: UnsafeMutablePointer<GCancellable> { deadline.cancellable }

    init(deadline: LibSecretDeadline) {
        self.deadline = deadline
    }

    /// The secret of `profile`, or nil: nil means "not stored" *or* "locked" (gnome-keyring hides
    /// the attributes of locked items, so nothing matches); only `probe()` tells them apart.
    func lookup(_ profile: String) throws -> String? {
        var error: UnsafeMutablePointer<GError>?
        let secret = kc_secret_lookup(profile, cancellable, &error)
        defer { if let secret { kc_secret_password_free(secret) } }  // zeroes before freeing
        if let error { throw LibSecretFailure(taking: error) }
        return secret.map { String(cString: $0) }
    }

    /// Creates or replaces the item with all three attributes in the default collection.
    func store(_ secret: String, for key: SecretKey) throws {
        var error: UnsafeMutablePointer<GError>?
        let ok = kc_secret_store(key.label, secret, key.profile, key.issuer, key.clientID,
                                 cancellable, &error)
        if let error { throw LibSecretFailure(taking: error) }
        if ok == 0 {
            throw LibSecretFailure(domain: "kcauth", code: 0, message: "store returned FALSE without an error")
        }
    }

    /// Deletes every unlocked item of `profile`; false when nothing matched (or it is locked).
    func clear(_ profile: String) throws -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let removed = kc_secret_clear(profile, cancellable, &error)
        if let error { throw LibSecretFailure(taking: error) }
        return removed != 0
    }

    /// Removes items of `key.profile` stored under another issuer or client ID. Lookups match on
    /// the profile alone, so a leftover item from before a profile changed its issuer could be
    /// returned instead of the current one.
    func removeStaleItems(of key: SecretKey) throws {
        var error: UnsafeMutablePointer<GError>?
        let list = kc_secret_search(key.profile, cancellable, &error)
        defer { kc_list_free_objects(list) }
        if let error { throw LibSecretFailure(taking: error) }

        var stale: [(issuer: String, clientID: String)] = []
        var node = list
        while let current = node {
            if let item = current.pointee.data, let attributes = kc_secret_retrievable_get_attributes(OpaquePointer(item)) {
                let issuer = Self.string(attributes, "issuer"), clientID = Self.string(attributes, "client_id")
                kc_g_hash_table_unref(attributes)
                if issuer != key.issuer || clientID != key.clientID {
                    stale.append((issuer ?? "", clientID ?? ""))
                }
            }
            node = current.pointee.next
        }
        for (issuer, clientID) in stale {
            _ = kc_secret_clear_exact(key.profile, issuer, clientID, cancellable, &error)
            if let error { throw LibSecretFailure(taking: error) }
        }
    }

    enum ProbeResult: Equatable {
        case unlocked
        case locked(label: String?)
        case noDefaultCollection
    }

    /// Service → `default` alias → locked? Three non-variadic calls, 2–16 ms, no prompt.
    func probe() throws -> ProbeResult {
        try withDefaultCollection { _, collection in
            // NULL without an error: the alias resolves to nothing (no login keyring was created).
            guard let collection else { return .noDefaultCollection }
            guard kc_secret_collection_get_locked(collection) != 0 else { return .unlocked }
            return .locked(label: Self.label(of: collection))
        }
    }

    enum UnlockResult: Equatable {
        /// The collection is unlocked now (or already was).
        case unlocked
        /// The prompt was dismissed, or the service unlocked nothing.
        case notUnlocked
        case noDefaultCollection
    }

    /// Asks the Secret Service to unlock the default collection. Where the service shows a prompt
    /// (gnome-keyring's password dialog) this blocks until the person answers it: give it a
    /// deadline that never cancels (see `LibSecretDeadline`), only the watchdog.
    func unlockDefault() throws -> UnlockResult {
        try withDefaultCollection { service, collection in
            guard let collection else { return .noDefaultCollection }
            var error: UnsafeMutablePointer<GError>?
            let count = kc_secret_service_unlock_collection(service, collection, cancellable, &error)
            if let error { throw LibSecretFailure(taking: error) }
            // Secret Service API, Prompt.Completed: a dismissed prompt unlocks nothing; libsecret
            // then returns 0 without an error.
            return count > 0 ? .unlocked : .notUnlocked
        }
    }

    /// Runs `body` with the Secret Service and its `default` collection (nil: there is none);
    /// both are released afterwards.
    private func withDefaultCollection<T>(
        _ body: (UnsafeMutablePointer<SecretService>, UnsafeMutablePointer<SecretCollection>?) throws -> T
    ) throws -> T {
        var error: UnsafeMutablePointer<GError>?
        let service = kc_secret_service_get_sync(SECRET_SERVICE_NONE, cancellable, &error)
        if let error {
            if let service { kc_g_object_unref(service) }
            throw LibSecretFailure(taking: error)
        }
        guard let service else {
            throw LibSecretFailure(domain: "kcauth", code: 0, message: "no Secret Service object")
        }
        defer { kc_g_object_unref(service) }

        let collection = kc_secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT,
                                                          SECRET_COLLECTION_NONE, cancellable, &error)
        if let error {
            if let collection { kc_g_object_unref(collection) }
            throw LibSecretFailure(taking: error)
        }
        defer { if let collection { kc_g_object_unref(collection) } }
        return try body(service, collection)
    }

    private static func label(of collection: UnsafeMutablePointer<SecretCollection>) -> String? {
        guard let raw = kc_secret_collection_get_label(collection) else { return nil }
        defer { kc_g_free(raw) }
        // From the other end of the bus: one line, bounded, before it reaches any message.
        let label = Sanitize.oneLine(String(cString: raw), limit: 80)
        return label.isEmpty ? nil : label
    }

    private static func string(_ table: OpaquePointer, _ key: String) -> String? {
        kc_g_hash_table_lookup(table, key).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
    }
}
