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

    /// Where refresh locks and session marks live, by uid alone (``ContractPaths/sharedDirectory(uid:)``).
    public static func lockDirectory(uid: uid_t = geteuid()) -> String { ContractPaths.sharedDirectory(uid: uid) }
}
