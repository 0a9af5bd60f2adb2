import KCAuthCore

/// What to do about a locked default collection (Secret Service API, "Unlock"): ask the Secret
/// Service to unlock it — which shows the keyring's own password dialog — or fail at once with the
/// fix.
///
/// Only where a dialog can be seen and answered: a graphical session (DISPLAY or WAYLAND_DISPLAY).
/// Headless, gnome-keyring's prompter cannot start and the request would only fail (or, with a
/// dead display, wait for a prompt nobody sees), so kcauth says so without trying. Commands that
/// report (`status`, `doctor`) never prompt.
enum LibSecretUnlockPolicy: Equatable {
    case prompt
    case fail(KCAuthError)

    static func decide(label: String?, hasDisplay: Bool, promptsAllowed: Bool) -> LibSecretUnlockPolicy {
        guard promptsAllowed else { return .fail(LibSecretMessages.locked(label)) }
        guard hasDisplay else { return .fail(LibSecretMessages.lockedHeadless(label)) }
        return .prompt
    }
}
