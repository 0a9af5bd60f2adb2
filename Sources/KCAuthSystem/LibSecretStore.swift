import KCAuthCore

/// `SecretStore` over the freedesktop Secret Service (gnome-keyring, KeePassXC…) via libsecret.
///
/// Items use the schema `dev.kcauth.AuthState` with the attributes `profile`, `issuer` and
/// `client_id`; lookups and deletes match on `profile` alone. Every operation is bounded by
/// `deadline` (notes: a wedged bus blocks forever, a stopped daemon for 50 s), and a NULL lookup
/// is never taken as "not stored" before a probe has ruled out a locked keyring.
public struct LibSecretStore: SecretStore {
    public let name = "keyring"

    /// 2 s: a healthy Secret Service answers a lookup or probe in 2–16 ms (linux-secret-service
    /// notes §4.2), so this is over 100 times any real answer, and a hung daemon or wedged bus is
    /// reported while the person is still waiting for it (issue 10 asked for ≤ 2 s, not 5–6 s).
    public static let defaultDeadline: Double = 2
    /// A store may show an unlock prompt that only the watchdog bounds (notes §3 c3, §4.5): it
    /// keeps the longer deadline it always had, so a person at a display can answer the prompt.
    public static let storeDeadline: Double = 5

    private let environment: LibSecretEnvironment
    private let deadline: Double

    /// - Parameters:
    ///   - environment: the process environment, for the bus pre-check and display detection.
    ///     (libsecret itself reads the real environment: pass the real one.)
    ///   - deadline: seconds one operation (all its libsecret calls) may take before it fails with
    ///     `storageNotResponding`; a hard watchdog ends the process one second later when the
    ///     operation may be stuck on an unlock prompt.
    public init(environment: [String: String], deadline: Double = LibSecretStore.defaultDeadline) {
        self.environment = LibSecretEnvironment(environment)
        self.deadline = deadline.isFinite && deadline > 0.05 ? deadline : 0.05
    }

    public func checkAvailable() throws {
        try perform("check the keyring", mayPrompt: false) { calls in
            try requireUsable(calls.probe())
        }
    }

    public func read(profile: String) throws -> String? {
        try perform("read the item", mayPrompt: false) { calls in
            // Lookup first: the common case (stored, unlocked) then needs one round trip.
            if let secret = try calls.lookup(profile) { return secret }
            try requireUsable(calls.probe())
            return nil
        }
    }

    public func write(_ secret: String, for key: SecretKey) throws {
        try perform("store the item", mayPrompt: true, deadline: max(deadline, Self.storeDeadline)) { calls in
            let existing = try calls.lookup(key.profile)
            // Rewriting an unchanged item costs time on some backends (notes §4.9).
            if existing == secret { return }
            if existing == nil {
                switch try calls.probe() {
                case .unlocked:
                    break
                case .noDefaultCollection:
                    throw LibSecretMessages.noDefaultCollection()
                case .locked(let label):
                    // Headless, the store would only fail with IsLocked; say so without trying.
                    guard environment.hasDisplay else { throw LibSecretMessages.locked(label) }
                    // With a display the store shows an unlock prompt. Cancelling a pending
                    // prompt makes gnome-keyring 42 abort, so from here on only the watchdog
                    // bounds the call.
                    calls.deadline.keepPromptAlive()
                }
            }
            try calls.store(secret, for: key)
            if existing != nil { try calls.removeStaleItems(of: key) }
            // Some providers have accepted items and then not returned them (notes §4.9). A
            // different value is not an error: another kcauth process wrote in between.
            guard try calls.lookup(key.profile) != nil else {
                throw KCAuthError(.storageUnavailable,
                                  "the keyring accepted the item but did not return it when read back",
                                  hint: LibSecretMessages.unavailableHint)
            }
        }
    }

    @discardableResult
    public func delete(profile: String) throws -> Bool {
        try perform("delete the item", mayPrompt: false) { calls in
            if try calls.clear(profile) { return true }
            // FALSE with no error also when the keyring is locked: probe before saying "nothing".
            try requireUsable(calls.probe())
            return false
        }
    }

    /// Runs one operation: bus pre-check, one deadline for all its calls, error mapping.
    private func perform<T>(_ action: String, mayPrompt: Bool, deadline: Double? = nil,
                            _ body: (LibSecretCalls) throws -> T) throws -> T {
        let deadline = deadline ?? self.deadline
        if let reason = environment.missingBusReason { throw LibSecretMessages.noBus(reason) }
        try LibSecretLibrary.load()
        let timer = LibSecretDeadline(seconds: deadline, watchdog: mayPrompt || environment.hasDisplay)
        defer { timer.finish() }
        do {
            return try body(LibSecretCalls(deadline: timer))
        } catch let failure as LibSecretFailure {
            throw failure.storageError(action: action, deadline: deadline)
        }
    }

    private func requireUsable(_ probe: LibSecretCalls.ProbeResult) throws {
        switch probe {
        case .unlocked: return
        case .locked(let label): throw LibSecretMessages.locked(label)
        case .noDefaultCollection: throw LibSecretMessages.noDefaultCollection()
        }
    }
}
