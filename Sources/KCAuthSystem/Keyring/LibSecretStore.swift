import KCAuthCore

/// `SecretStore` over the freedesktop Secret Service (gnome-keyring, KeePassXC…) via libsecret.
///
/// Items use the schema `dev.kcauth.AuthState` with the attributes `profile`, `issuer` and
/// `client_id`; lookups and deletes match on `profile` alone. Every operation is bounded by
/// `deadline` (notes: a wedged bus blocks forever, a stopped daemon for 50 s), and a NULL lookup
/// is never taken as "not stored" before a probe has ruled out a locked keyring.
///
/// A locked default collection is unlocked through the Secret Service's own prompt where one can
/// be shown (`LibSecretUnlockPolicy`): the store reports the wait through `onUnlockPrompt`, waits
/// up to `unlockWait`, then runs the operation again.
public struct LibSecretStore: UnlockPrompting {
    public let name = "keyring"

    private let environment: LibSecretEnvironment
    /// 2 s: a healthy Secret Service answers a lookup or probe in 2–16 ms (linux-secret-service
    /// notes §4.2), so this is over 100 times any real answer, and a hung daemon or wedged bus is
    /// reported while the person is still waiting for it (within 2 s, not after 5–6 s).
    /// No operation waits on an unlock prompt under it: a locked collection is unlocked first,
    /// with its own wait (`unlockWait`).
    public static let defaultDeadline: Double = 2

    private let deadline: Double
    private let unlockWait: Double
    private var promptsAllowed = true
    private let onUnlockPrompt: @Sendable (UnlockPromptNotice) -> Void
    private let presentError: @Sendable (KCAuthError) -> String

    /// How long a person gets to answer the keyring's password dialog.
    public static let defaultUnlockWait = 30.0

    /// - Parameters:
    ///   - environment: the process environment, for the bus pre-check and display detection.
    ///     (libsecret itself reads the real environment: pass the real one.)
    ///   - deadline: seconds one operation (all its libsecret calls) may take before it fails with
    ///     `storageNotResponding`; a hard watchdog ends the process one second later when the
    ///     operation may be stuck on an unlock prompt.
    ///   - unlockWait: seconds to wait for the unlock dialog; then the watchdog ends the process
    ///     with exit status 5 (a pending prompt cannot be cancelled safely).
    ///   - onUnlockPrompt: called just before the store waits for the unlock dialog.
    ///   - presentError: the front end's one line for an error, for the watchdog's last word.
    public init(environment: [String: String], deadline: Double = defaultDeadline, unlockWait: Double = defaultUnlockWait,
                onUnlockPrompt: @escaping @Sendable (UnlockPromptNotice) -> Void = { _ in },
                presentError: @escaping @Sendable (KCAuthError) -> String = { "error: " + $0.message }) {
        self.presentError = presentError
        self.environment = LibSecretEnvironment(environment)
        self.deadline = deadline.isFinite && deadline > 0.05 ? deadline : 0.05
        self.unlockWait = unlockWait.isFinite && unlockWait > 0.05 ? unlockWait : 0.05
        self.onUnlockPrompt = onUnlockPrompt
    }

    public func reportingOnly() -> any SecretStore {
        var copy = self
        copy.promptsAllowed = false
        return copy
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
        try perform("store the item", mayPrompt: true) { calls in
            let existing = try calls.lookup(key.profile)
            // Rewriting an unchanged item costs time on some backends (notes §4.9).
            if existing == secret { return }
            // Locked: unlock explicitly first (`perform`) rather than let the store prompt under
            // the operation's short deadline.
            if existing == nil { try requireUsable(calls.probe()) }
            try calls.store(secret, for: key)
            if existing != nil { try calls.removeStaleItems(of: key) }
            // Some providers have accepted items and then not returned them (notes §4.9). A
            // different value is not an error: another kcauth process wrote in between.
            guard try calls.lookup(key.profile) != nil else {
                throw KCAuthError(.storageUnavailable,
                                  "the keyring accepted the item but did not return it when read back",
                                  remedy: .startKeyring)
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

    /// Runs one operation: bus pre-check, one deadline for all its calls, error mapping; a locked
    /// collection is unlocked (where the policy allows) and the operation run once more.
    private func perform<T>(_ action: String, mayPrompt: Bool,
                            _ body: (LibSecretCalls) throws -> T) throws -> T {
        if let reason = environment.missingBusReason { throw LibSecretMessages.noBus(reason) }
        try LibSecretLibrary.load()
        do {
            return try attempt(action, mayPrompt: mayPrompt, body)
        } catch let locked as LockedCollection {
            switch LibSecretUnlockPolicy.decide(label: locked.label, hasDisplay: environment.hasDisplay,
                                                promptsAllowed: promptsAllowed) {
            case .fail(let error): throw error
            case .prompt: try unlock(locked.label)
            }
        }
        do {
            return try attempt(action, mayPrompt: mayPrompt, body)
        } catch let locked as LockedCollection {
            throw LibSecretMessages.locked(locked.label)  // locked again at once: do not loop
        }
    }

    private func attempt<T>(_ action: String, mayPrompt: Bool, _ body: (LibSecretCalls) throws -> T) throws -> T {
        let timer = LibSecretDeadline(seconds: deadline, watchdog: mayPrompt || environment.hasDisplay)
        defer { timer.finish() }
        do {
            return try body(LibSecretCalls(deadline: timer))
        } catch let failure as LibSecretFailure {
            throw failure.storageError(action: action, deadline: deadline)
        }
    }

    /// Asks the Secret Service to unlock the default collection and waits for its dialog. The wait
    /// is never cancelled (gnome-keyring 42 aborts when a pending prompt is cancelled, notes §3
    /// c3): at `unlockWait` the watchdog writes the error line and exits with status 5.
    private func unlock(_ label: String?) throws {
        onUnlockPrompt(UnlockPromptNotice(keyring: label, seconds: unlockWait))
        let timer = LibSecretDeadline(seconds: max(unlockWait - LibSecretDeadline.watchdogMargin, 0.05),
                                      watchdog: true, cancels: false,
                                      watchdogMessage: presentError(LibSecretMessages.unlockTimedOut(label, seconds: unlockWait)))
        defer { timer.finish() }
        let result: LibSecretCalls.UnlockResult
        do {
            result = try LibSecretCalls(deadline: timer).unlockDefault()
        } catch let failure as LibSecretFailure {
            throw failure.storageError(action: "unlock the collection", deadline: unlockWait)
        }
        switch result {
        case .unlocked: return
        case .notUnlocked: throw LibSecretMessages.unlockDismissed(label)
        case .noDefaultCollection: throw LibSecretMessages.noDefaultCollection()
        }
    }

    private func requireUsable(_ probe: LibSecretCalls.ProbeResult) throws {
        switch probe {
        case .unlocked: return
        case .locked(let label): throw LockedCollection(label: label)
        case .noDefaultCollection: throw LibSecretMessages.noDefaultCollection()
        }
    }
}
