import KCAuthCore

/// Where kcauth keeps its files, following the XDG Base Directory specification.
public struct Paths: Sendable, Equatable {
    public var configDirectory: String
    /// Where refresh locks live: the per-user runtime directory, else the cache directory.
    public var lockDirectory: String

    public init(environment: [String: String]) {
        func absolute(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let home = environment["HOME"] ?? "/"
        configDirectory = (absolute("XDG_CONFIG_HOME") ?? home + "/.config") + "/kcauth"
        lockDirectory = (absolute("XDG_RUNTIME_DIR") ?? absolute("XDG_CACHE_HOME") ?? home + "/.cache") + "/kcauth"
    }

    public var configFile: String { configDirectory + "/config" }
}
