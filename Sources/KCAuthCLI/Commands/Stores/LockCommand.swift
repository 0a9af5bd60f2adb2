import KCAuth
import KCAuthCore

/// `kcauth lock`: revoke the encrypted store's data key in the kernel keyring.
enum LockCommand: Command {
    static let spec = CommandSpec(
        "lock", summary: "Lock the encrypted store again",
        description: """
        Revokes the encrypted store's data key in the kernel keyring (every data key kcauth left \
        there for your user, whatever state the store's files are in): from now on every kcauth \
        that needs a stored session asks for the passphrase (or fails with exit status 5 when \
        nobody is at a terminal) until `kcauth unlock`. Access tokens already in the runtime \
        cache stay usable until they expire; `kcauth logout` ends a session.
        """,
        usage: "",
        options: [],
        examples: ["kcauth lock"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        switch try services.context.lock().run() {
        case .locked(keys: 1): services.console.err("The encrypted store is locked.\n")
        case .locked(let keys): services.console.err("The encrypted stores are locked (\(keys) data keys revoked).\n")
        case .wasNotUnlocked: services.console.err("The encrypted store was not unlocked.\n")
        }
    }
}
