import KCAuthCore

/// `kubeconfig --merge FILE`: kcauth's entries added to a kubeconfig, or replacing the ones of
/// the same name, in the file's own format (``KubeconfigText``), the way kubectl changes the
/// file (``KubeconfigFiles``: its lock, a backup, an atomic write through a symbolic link).
public struct KubeconfigMerge: Sendable {
    let files: any KubeconfigFiles

    public init(files: any KubeconfigFiles) { self.files = files }

    /// Returns whether there was a file before (its text is then kept in `path.bak`).
    public func run(_ entry: KubeconfigEntry, into path: String) throws -> Bool {
        try files.update(path) { try KubeconfigText.merged(entry, into: $0) }
    }
}

extension KCAuthContext {
    public func kubeconfigMerge() -> KubeconfigMerge { KubeconfigMerge(files: adapters.kubeconfigFiles) }
}
