import KCAuthCore

/// `kubeconfig --merge FILE`: kcauth's entries added to a kubeconfig, or replacing the ones of
/// the same name, in the file's own format (``KubeconfigText``), the way kubectl changes the
/// file (``KubeconfigFiles``: its lock, a backup, an atomic write through a symbolic link).
public struct KubeconfigMerge: Sendable {
    let files: any KubeconfigFiles

    public init(files: any KubeconfigFiles) { self.files = files }

    /// Returns whether there was a file before (its text is then kept in `path.bak`).
    /// A context for a cluster the file does not have would point kubectl nowhere: that is an
    /// error naming the clusters there, and the file is left as it was.
    public func run(_ entry: KubeconfigEntry, into path: String) throws -> Bool {
        try files.update(path) { old in
            if let cluster = entry.cluster, let names = try KubeconfigText.clusterNames(in: old), !names.contains(cluster) {
                let there = names.isEmpty ? "it has no clusters"
                    : "its clusters are " + names.map { "'\(Sanitize.oneLine($0, limit: 100))'" }.joined(separator: ", ")
                throw KCAuthError(.usage, "there is no cluster '\(Sanitize.oneLine(cluster, limit: 100))' in \(path): \(there)",
                                  remedy: .addClusterFirst)
            }
            return try KubeconfigText.merged(entry, into: old)
        }
    }
}

extension KCAuthContext {
    public func kubeconfigMerge() -> KubeconfigMerge { KubeconfigMerge(files: adapters.kubeconfigFiles) }
}
