import KCAuthCore

/// The line said while the keyring's own password dialog is open (`UnlockPromptNotice`): without it
/// a terminal command would seem to hang while a dialog waits somewhere on the desktop.
enum UnlockPromptLine {
    static func text(_ notice: UnlockPromptNotice) -> String {
        let keyring = notice.keyring.map { "the keyring '\(Sanitize.oneLine($0, limit: 80))'" } ?? "the keyring"
        return "Unlock \(keyring) in the dialog to continue (waiting up to \(Int(notice.seconds.rounded())) s)…"
    }
}
