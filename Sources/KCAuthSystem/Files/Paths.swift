#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// Where kcauth keeps its files, for the full program's adapters: the contract's
/// ``ContractPaths`` (the front works its paths out with the same code).
public struct Paths: Sendable, Equatable {
    public let contract: ContractPaths

    public init(environment: [String: String]) {
        contract = ContractPaths(environment: { environment[$0] })
    }

    /// `$XDG_CONFIG_HOME/kcauth` (default `~/.config/kcauth`): the configuration file.
    public var configDirectory: String { contract.configDirectory }
    /// `$XDG_STATE_HOME/kcauth` (default `~/.local/state/kcauth`): the file store.
    public var stateDirectory: String { contract.stateDirectory }
    /// `$XDG_RUNTIME_DIR/kcauth`: the runtime token cache; nil without a runtime directory.
    public var runtimeDirectory: String? { contract.runtimeDirectory }
    public var configFile: String { contract.configFile }

    /// Where refresh locks, sign-in locks and session marks live, by uid alone
    /// (``ContractPaths/sharedDirectory(uid:home:)``): the home is `/etc/passwd`'s, as the
    /// front finds it, else NSS's for a user the file does not list. nil: there is no place.
    public static func lockDirectory(uid: uid_t = geteuid()) -> String? {
        ContractPaths.sharedDirectory(uid: uid) { PasswordFile.home(uid: $0) ?? nssHome(uid: $0) }
    }

    static func nssHome(uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let dir = entry.pw_dir else { return nil }
        return PasswordFile.usable(String(cString: dir))
    }
}
