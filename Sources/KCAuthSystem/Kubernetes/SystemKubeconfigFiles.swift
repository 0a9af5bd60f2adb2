import KCAuthCore

/// The real ``KubeconfigFiles``: ``KubeconfigFile``, under kubectl's lock (``KubeconfigLock``).
public struct SystemKubeconfigFiles: KubeconfigFiles {
    public init() {}

    public func update(_ path: String, _ change: (String?) throws -> String) throws -> Bool {
        try KubeconfigFile.update(path, change)
    }
}
