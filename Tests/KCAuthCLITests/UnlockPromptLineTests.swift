import Testing
import KCAuthCore
@testable import KCAuthCLI

/// The one line said while the keyring's password dialog is open (`UnlockPromptNotice`).
@Suite struct UnlockPromptLineTests {
    @Test func namesTheKeyringAndTheWait() {
        #expect(UnlockPromptLine.text(UnlockPromptNotice(keyring: "Login", seconds: 30))
                == "Unlock the keyring 'Login' in the dialog to continue (waiting up to 30 s)…")
        #expect(UnlockPromptLine.text(UnlockPromptNotice(keyring: nil, seconds: 29.6))
                == "Unlock the keyring in the dialog to continue (waiting up to 30 s)…")
    }

    @Test func aHostileLabelStaysOnOneShortLine() {
        let line = UnlockPromptLine.text(UnlockPromptNotice(keyring: "a\nb\u{1b}[2J" + String(repeating: "x", count: 500), seconds: 30))
        #expect(!line.contains("\n") && !line.contains("\u{1b}"))
        #expect(line.count < 200)
    }
}
