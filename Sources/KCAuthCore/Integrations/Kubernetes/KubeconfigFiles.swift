/// The kubeconfig file a merge rewrites, the way kubectl changes it: under kubectl's lock
/// `FILE.lock`, read with a bound, the old text kept in `FILE.bak`, written atomically and
/// through a symbolic link to its target.
public protocol KubeconfigFiles: Sendable {
    /// Reads `path` (nil when it does not exist), lets `change` make the new text and writes it,
    /// all under the lock. Returns whether there was an old file.
    func update(_ path: String, _ change: (String?) throws -> String) throws -> Bool
}
