/// The 0600 file a kept-fresh `exec` keeps the access token in, rewritten atomically before it
/// expires and removed when the command ends.
public protocol TokenFiles: Sendable {
    /// A fresh private directory for one run's token file; the file is `directory + "/token"`.
    func makePrivateDirectory() throws -> String
    /// Writes `text` to `path` atomically, 0600.
    func write(_ text: String, to path: String) throws
    /// Removes the file, and the private directory when kcauth made one.
    func remove(_ path: String, directory: String?)
}
