#if canImport(Glibc)
import Glibc
#endif
import KCAuth
import KCAuthCore
import KCAuthSystem

/// `login` where no Secret Service runs (issue 19 #3): rather than fail, a person at the
/// terminal is offered the encrypted store. Only when nothing chose the keyring explicitly (a
/// flag, `KCAUTH_STORAGE`, or `storage =` in the profile), and never without a person: a job
/// without a terminal still exits 5 with the three stores it can choose named in the hint.
enum EncryptedStoreOffer {
    static func accepted(_ profile: ResolvedProfile, _ services: Services) throws -> Bool {
        guard profile.storage.value == .keyring, profile.storage.source == .default,
              isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return false }
        do {
            try services.context.store(.keyring).withoutUnlockPrompts().checkAvailable()  // never a dialog just to ask
            return false
        } catch let error as KCAuthError where error.code == .storageUnavailable {
            let console = services.console
            console.err("There is no keyring here (\(Sanitize.oneLine(error.message))).\n"
                        + "kcauth can keep the session in a file encrypted with a passphrase instead, "
                        + "unlocked once per boot (`kcauth unlock`).\n"
                        + "Use the encrypted store for profile '\(profile.name)'? [Y/n] ")
            let answer = (TerminalQuestionInput().readLine() ?? "n").lowercased()
            guard answer.isEmpty || answer == "y" || answer == "yes" else { throw error }
            return true
        }
    }
}
