import KCAuth
import KCAuthCore

/// `kcauth unlock`: the encrypted store's passphrase once, and its data key into the kernel's
/// user keyring, so every later kcauth of this user reads the store without asking
/// (`Unlock`; keyrings(7)).
enum UnlockCommand: Command {
    static let spec = CommandSpec(
        "unlock", summary: "Unlock the encrypted store for every process of yours",
        description: """
        Asks for the encrypted store's passphrase on the terminal (no echo), or reads it from \
        --passphrase-file, and keeps the store's data key in the kernel's user keyring for \
        --for (default 12h): until then every kcauth of your user, from any terminal, cron job \
        or kubectl, reads sessions without asking. `kcauth lock` forgets it at once; so does a \
        reboot. The key never touches the disk in clear.
        """,
        usage: "[--for DURATION] [--passphrase-file PATH]",
        options: [duration, EncryptedStoreOptions.passphraseFile],
        examples: ["kcauth unlock", "kcauth unlock --for 8h", "kcauth unlock --passphrase-file ~/.config/kcauth/passphrase"])

    static let duration = OptionSpec("for", value: "DURATION", help: "How long the store stays unlocked (up to 30d)", default: "12h")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let seconds = try command.value(duration).map(EncryptedStoreOptions.duration) ?? Unlock.defaultSeconds
        let unlocked = try services.context.unlock().run(seconds: seconds)
        services.console.err("The encrypted store is unlocked \(EncryptedStoreOptions.until(unlocked.until, now: unlocked.now)); "
                             + "`kcauth lock` locks it now.\n")
    }
}
