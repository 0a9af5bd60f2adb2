import Testing
import KCAuthCore
@testable import KCAuthSystem

/// When a locked keyring is unlocked through its own dialog, and what is said when it is not
/// (`LibSecretUnlockPolicy`).
@Suite struct LibSecretUnlockPolicyTests {
    @Test func aDisplayAndACommandThatMayPromptAskTheSecretService() {
        #expect(LibSecretUnlockPolicy.decide(label: "Login", hasDisplay: true, promptsAllowed: true) == .prompt)
    }

    @Test func headlessFailsAtOnceWithTheFix() {
        guard case .fail(let error) = LibSecretUnlockPolicy.decide(label: "Login", hasDisplay: false, promptsAllowed: true) else {
            Issue.record("headless must not prompt")
            return
        }
        #expect(error.code == .storageLocked)
        #expect(error.message == "the keyring \"Login\" is locked and there is no display (DISPLAY, WAYLAND_DISPLAY) for its unlock dialog")
        #expect(error.remedy == .unlockKeyringOrChooseStore, "no dialog can be shown: a store that needs no keyring is offered")
    }

    @Test func reportingCommandsNeverPromptEvenOnADisplay() {
        #expect(LibSecretUnlockPolicy.decide(label: nil, hasDisplay: true, promptsAllowed: false)
                == .fail(KCAuthError(.storageLocked, "the keyring is locked", remedy: .unlockKeyring)))
    }

    @Test func theDisplayComesFromEitherVariableAndMustNotBeEmpty() {
        #expect(LibSecretEnvironment(["DISPLAY": ":0"]).hasDisplay)
        #expect(LibSecretEnvironment(["WAYLAND_DISPLAY": "wayland-0"]).hasDisplay)
        #expect(!LibSecretEnvironment(["DISPLAY": "", "WAYLAND_DISPLAY": ""]).hasDisplay)
        #expect(!LibSecretEnvironment([:]).hasDisplay)
    }

    @Test func aDismissedDialogAndTheWatchdogSayWhatToDo() {
        let dismissed = LibSecretMessages.unlockDismissed("Login")
        #expect(dismissed.code == .storageLocked && dismissed.message
                == "the keyring \"Login\" was not unlocked: its unlock dialog was dismissed or could not be shown")
        let timedOut = LibSecretMessages.unlockTimedOut(nil, seconds: 30)
        #expect(timedOut.code == .storageLocked && timedOut.message == "the keyring was not unlocked within 30 s")
        #expect(timedOut.remedy == .unlockKeyring && dismissed.remedy == .unlockKeyringOrChooseStore)
    }

    @Test func aReportingStoreIsStillALibSecretStore() {
        let store = LibSecretStore(environment: [:])
        #expect(store.withoutUnlockPrompts() is LibSecretStore)
        #expect(store.withoutUnlockPrompts().name == "keyring")
    }
}
