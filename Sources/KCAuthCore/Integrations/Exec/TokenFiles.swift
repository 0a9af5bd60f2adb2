/// The 0600 file a kept-fresh `exec` keeps the access token in, rewritten atomically before it
/// expires and removed when the command ends.
public protocol TokenFiles: Sendable {
    /// Removes this user's private token directories whose kcauth is gone (killed by SIGKILL
    /// before it could remove them).
    func removeLeftovers()
    /// Whether anything is at `path` (a file, a directory, a symbolic link, even a dangling one).
    func exists(_ path: String) -> Bool
    /// A fresh private directory, on memory-backed storage only, for one run's token file; the
    /// file is `directory + "/token"`. Throws when there is no such place.
    func makePrivateDirectory() throws -> String
    /// Writes `text` to `path`, 0600. The first write creates the file, never over anything that
    /// is there and never through a symbolic link; later ones replace it atomically, as long as
    /// the file there is still the one kcauth wrote.
    func write(_ text: String, to path: String) throws
    /// Removes the file (only the one kcauth wrote), and the private directory when kcauth made one.
    func remove(_ path: String, directory: String?)
}
