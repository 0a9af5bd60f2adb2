#if canImport(Glibc)
import Glibc
#endif
import KCAuth
import KCAuthCore

/// `login` where no Secret Service runs: rather than fail, a person at the
/// terminal is offered the encrypted store (when: ``StoreOffer``). A job without a terminal
/// still exits 5 with the three stores it can choose named in the hint.
enum EncryptedStoreOffer {
    static func accepted(_ profile: ResolvedProfile, _ services: Services) throws -> Bool {
        guard let error = try services.context.storeOffer().reason(profile, personCanAnswer: isatty(STDERR_FILENO) == 1) else {
            return false
        }
        services.console.err("There is no keyring here (\(Sanitize.oneLine(MessageWords.message(error)))).\n"
                             + "kcauth can keep the session in a file encrypted with a passphrase instead, "
                             + "unlocked once per boot (`kcauth unlock`).\n"
                             + "Use the encrypted store for profile '\(profile.name)'? [Y/n] ")
        let answer = (services.context.adapters.terminal.readLine() ?? "n").lowercased()
        guard answer.isEmpty || answer == "y" || answer == "yes" else { throw error }
        return true
    }
}
