import KCAuthCore

/// The user-facing messages and hints of the three storage states, in one place.
enum LibSecretMessages {
    static let unavailableHint = "start one (a desktop session has gnome-keyring or KeePassXC; headless: "
        + "`gnome-keyring-daemon --unlock`)" + explicitFileHint
    /// Only ever a hint: kcauth never falls back to a plaintext file by itself (issue 5); the
    /// three stores that need no keyring are named, for a job without a terminal (issue 19).
    static let explicitFileHint = ", or choose a store explicitly: `--storage encrypted` (a passphrase-protected file; "
        + "`--passphrase-file PATH` without a terminal), `--storage file` (a plaintext file, on purpose) or `--storage memory` (nothing kept)"
    // Plain `gnome-keyring-daemon --unlock` does not unlock an already running daemon (it starts a
    // second one); `--replace --unlock` does (verified against gnome-keyring 42.1).
    static let lockedHint = "unlock it: log in to the desktop session or open \"Passwords and Keys\"; "
        + "headless, pipe its password into `gnome-keyring-daemon --replace --unlock`"
    static let notRespondingHint = "restart gnome-keyring-daemon (or log out and back in)"

    static func noBus(_ reason: String) -> KCAuthError {
        KCAuthError(.storageUnavailable, "no D-Bus session bus: \(reason)", hint: unavailableHint)
    }

    static let noCollectionHint = "create one: log in to a desktop session once, or pipe a new "
        + "password into `gnome-keyring-daemon --replace --unlock`" + explicitFileHint

    static func noDefaultCollection(cause: String? = nil) -> KCAuthError {
        KCAuthError(.storageUnavailable,
                    "the keyring has no default collection (no login keyring was ever created)",
                    hint: noCollectionHint, cause: cause)
    }

    static func locked(_ label: String?) -> KCAuthError {
        KCAuthError(.storageLocked, "\(keyringName(label)) is locked", hint: lockedHint)
    }

    /// Locked, and nobody can be asked: no display for the keyring's password dialog.
    static func lockedHeadless(_ label: String?) -> KCAuthError {
        KCAuthError(.storageLocked, "\(keyringName(label)) is locked and there is no display (DISPLAY, "
                    + "WAYLAND_DISPLAY) for its unlock dialog", hint: lockedHint)
    }

    static func unlockDismissed(_ label: String?) -> KCAuthError {
        // gnome-keyring reports a prompter that cannot start (a stale DISPLAY) the same way.
        KCAuthError(.storageLocked, "\(keyringName(label)) was not unlocked: its unlock dialog was dismissed "
                    + "or could not be shown", hint: lockedHint)
    }

    /// The watchdog's line when nobody answered the unlock dialog in time; in the presenter's
    /// `error: …; fix` form, because it is the process's last word (it `_exit`s).
    static func unlockTimedOutLine(_ label: String?, seconds: Double) -> String {
        "error: \(keyringName(label)) was not unlocked within \(formatSeconds(seconds)); \(lockedHint)"
    }

    /// For `doctor`: how the dialog comes about, besides the manual ways.
    static let lockedFix = "kcauth login, token, refresh, logout and whoami ask for its password in the keyring's own "
        + "dialog when a display is available; or " + lockedHint

    static func keyringName(_ label: String?) -> String {
        label.map { "the keyring \"\($0)\"" } ?? "the keyring"
    }

    static func notResponding(_ seconds: Double, cause: String?) -> KCAuthError {
        KCAuthError(.storageNotResponding,
                    "the keyring did not answer within \(formatSeconds(seconds))",
                    hint: notRespondingHint, cause: cause)
    }
}
