import KCAuthCore

/// `login`'s side of the storage choice (issue 5): the `--storage` and `-o` options, moving a
/// profile between the keyring and the file, the plaintext warning, and the one-shot memory
/// store whose token is printed once. Kept out of `LoginCommand` so the flow stays readable.
struct LoginStorage {
    static let option = OptionSpec("storage", value: "KIND", help: "Where to keep the session, remembered per profile",
                                   default: "keyring", choices: StorageKind.allCases.map(\.rawValue), environment: "KCAUTH_STORAGE")
    static let output = OptionSpec("output", short: "o", value: "FORMAT",
                                   help: "Also print the access token on stdout (for --storage memory)", choices: ["raw", "json"])

    let kind: StorageKind
    /// The store the login writes to (wrapped to remove the old copy when the profile moves).
    let store: any SecretStore
    let format: String?

    init(_ command: ParsedCommand, _ services: Services, profile: String, saved: ProfileSettings) throws {
        let console = services.console
        kind = try services.context.explicitStorage(option: command.value("storage")) ?? saved.storage ?? .keyring
        format = command.value("output")
        let target = services.context.makeStore(kind, profile: profile, warn: { console.err($0 + "\n") })
        // The other persistent store may hold an old copy: a file left by `--storage file`
        // (unlinking a missing file costs nothing), or the keyring item of a profile that was
        // on the keyring until now (not probed for profiles already on file: no keyring needed).
        let previous: (any SecretStore)?
        switch kind {
        case .keyring: previous = services.fileStore
        case .file: previous = saved.storage == .file ? nil : services.context.makeStore(.keyring, profile: profile)
        case .memory: previous = nil  // one-shot: the stored session, if any, is left alone
        }
        guard let previous else {
            store = target
            return
        }
        store = MigratingSecretStore(target: target, previous: previous) { [kind] cleanup in
            switch cleanup {
            case .removed:
                console.err("Moved profile '\(profile)' to the \(kind.rawValue) store: removed its old copy from the \(previous.name).\n")
            case .nothingThere:
                break
            case .failed(let error) where previous.name == StorageKind.keyring.rawValue && error.code == .storageUnavailable:
                break  // no keyring at all, so no old copy in it: the usual reason to choose a file
            case .failed(let error):
                console.err("warning: could not remove the old copy of profile '\(profile)' from the \(previous.name): "
                            + "\(Sanitize.oneLine(error.message)); remove it once that works again\n")
            }
        }
    }

    /// The `storage` setting to remember: only a file is worth writing down (the keyring is the
    /// default, and memory is never sticky).
    var setting: StorageKind? { kind == .file ? .file : nil }

    /// Memory keeps nothing, so it must not leave settings behind either.
    var savesSettings: Bool { kind != .memory }

    /// After a successful login: the token once on stdout with `-o`, and for memory a note that
    /// nothing was kept.
    func deliver(_ state: AuthState, profile: String, console: any Console) {
        switch format {
        case "raw":
            console.out(state.accessToken + "\n")
        case "json":
            console.out(JSONValue.fields([
                ("access_token", .string(state.accessToken)),
                ("token_type", .string(state.tokenType)),
                ("expires_at", .string(state.expiresAt)),
                ("scope", .string(state.scope)),
                ("issuer", .string(state.issuer)),
                ("profile", .string(profile)),
            ]).compact + "\n")
        default:
            if kind == .memory {
                console.err("Nothing was kept (--storage memory): the session ends with this command; "
                            + "add -o raw or -o json to print the access token.\n")
            }
        }
    }
}
