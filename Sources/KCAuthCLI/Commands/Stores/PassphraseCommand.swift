import KCAuth
import KCAuthCore

/// `kcauth passphrase`: wrap the encrypted store's data key under a new passphrase.
enum PassphraseCommand: Command {
    static let spec = CommandSpec(
        "passphrase", summary: "Change the encrypted store's passphrase",
        description: """
        Asks for the current passphrase (or reads --passphrase-file), then for the new one twice \
        (or reads --new-passphrase-file), and rewrites the store's key file atomically: the data \
        key stays the same, so the sessions are not rewritten and an unlocked store stays unlocked.
        """,
        usage: "[--passphrase-file PATH] [--new-passphrase-file PATH]",
        options: [EncryptedStoreOptions.passphraseFile, newFile],
        examples: ["kcauth passphrase"])

    static let newFile = OptionSpec("new-passphrase-file", value: "PATH", help: "Read the new passphrase from this file (mode 0600)",
                                    completes: .files)

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        try services.context.passphrase().run(newPassphraseFile: command.value(newFile))
        services.console.err("The encrypted store's passphrase is changed.\n")
    }
}
