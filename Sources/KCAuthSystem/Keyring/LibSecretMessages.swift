import KCAuthCore

/// The messages of the three storage states, with typed remedies (the CLI phrases them), in one place.
enum LibSecretMessages {
    static func noBus(_ reason: String) -> KCAuthError {
        KCAuthError(.storageUnavailable, "no D-Bus session bus: \(reason)", remedy: .startKeyring)
    }

    static func noDefaultCollection(cause: String? = nil) -> KCAuthError {
        KCAuthError(.storageUnavailable,
                    "the keyring has no default collection (no login keyring was ever created)",
                    cause: cause, remedy: .createKeyringCollection)
    }

    static func locked(_ label: String?) -> KCAuthError {
        KCAuthError(.storageLocked, "\(keyringName(label)) is locked", remedy: .unlockKeyring)
    }

    /// Locked, and nobody can be asked: no display for the keyring's password dialog.
    static func lockedHeadless(_ label: String?) -> KCAuthError {
        KCAuthError(.storageLocked, "\(keyringName(label)) is locked and there is no display (DISPLAY, "
                    + "WAYLAND_DISPLAY) for its unlock dialog", remedy: .unlockKeyringOrChooseStore)
    }

    static func unlockDismissed(_ label: String?) -> KCAuthError {
        // gnome-keyring reports a prompter that cannot start (a stale DISPLAY) the same way.
        KCAuthError(.storageLocked, "\(keyringName(label)) was not unlocked: its unlock dialog was dismissed "
                    + "or could not be shown", remedy: .unlockKeyringOrChooseStore)
    }

    /// What the watchdog says when nobody answered the unlock dialog in time (the presenter
    /// phrases it: it is the process's last word, written before `_exit`).
    static func unlockTimedOut(_ label: String?, seconds: Double) -> KCAuthError {
        KCAuthError(.storageLocked, "\(keyringName(label)) was not unlocked within \(formatSeconds(seconds))", remedy: .unlockKeyring)
    }

    static func keyringName(_ label: String?) -> String {
        label.map { "the keyring \"\($0)\"" } ?? "the keyring"
    }

    static func notResponding(_ seconds: Double, cause: String?) -> KCAuthError {
        KCAuthError(.storageNotResponding,
                    "the keyring did not answer within \(formatSeconds(seconds))",
                    cause: cause, remedy: .restartKeyring)
    }
}
