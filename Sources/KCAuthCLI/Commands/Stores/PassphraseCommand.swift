import KCAuth
import KCAuthCore

/// `kcauth passphrase`: wrap the encrypted store's data key under a new passphrase, or re-seal
/// every session under a new data key (`--new-key`).
enum PassphraseCommand: Command {
    static let spec = CommandSpec(
        "passphrase", summary: "Change the encrypted store's passphrase",
        description: """
        Asks for the current passphrase (or reads --passphrase-file), then for the new one twice \
        (at least 8 characters; or reads --new-passphrase-file), and rewrites the store's key file \
        atomically: the data key stays the same, so the sessions are not rewritten and an unlocked \
        store stays unlocked. An old copy of the key file still opens with the old passphrase; \
        with --new-key every session is re-sealed under a new data key instead (all of them or, \
        after a failure or a crash, none), and the old key is revoked in the kernel keyring.
        """,
        usage: "[--new-key] [--passphrase-file PATH] [--new-passphrase-file PATH]",
        options: [newKey, EncryptedStoreOptions.passphraseFile, newFile],
        examples: ["kcauth passphrase", "kcauth passphrase --new-key"])

    static let newKey = OptionSpec("new-key", help: "Also re-seal every session under a new data key and revoke the old one")
    static let newFile = OptionSpec("new-passphrase-file", value: "PATH", help: "Read the new passphrase from this file (mode 0600)",
                                    completes: .files)

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let change = try services.context.passphrase().run(newPassphraseFile: command.value(newFile), newKey: command.flag(newKey))
        switch change {
        case .rewrapped:
            services.console.err("The encrypted store's passphrase is changed.\n")
        case .newKey(let profiles, let until):
            let sessions = profiles.isEmpty ? "no sessions to re-seal"
                : "re-sealed the session" + (profiles.count == 1 ? " of profile " : "s of profiles ") + profiles.map { "'\($0)'" }.joined(separator: ", ")
            let state = until.map { "it stays unlocked \(EncryptedStoreOptions.until($0, now: services.context.clock.instant))" }
                ?? "it is locked: `kcauth unlock` opens it"
            services.console.err("The encrypted store has a new passphrase and a new data key (\(sessions)); the old key is revoked, and \(state).\n")
        }
    }
}
