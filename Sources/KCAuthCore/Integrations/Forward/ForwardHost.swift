/// What a forward needs of the laptop it runs on: a private directory for its files, a socket,
/// the stop signals held back (so that it always cleans up), its log, and the other forwards.
public protocol ForwardHost: Sendable {
    /// This process, as a record names it.
    var processID: Int32 { get }
    /// A fresh private (0700) directory for one forward's files; its path.
    func makeDirectory() throws -> String
    /// Writes the forward's record (0600) into its directory.
    func write(_ record: ForwardRecord, in directory: String)
    /// Removes the directory and the files kcauth put there.
    func remove(directory: String, files: [String])
    /// Why a socket must not be created at the absolute `path`, or nil: the path must not exist,
    /// and its directory must be the user's and closed to others (0700).
    func socketPathProblem(_ path: String) -> SocketPathProblem?
    /// Listens on `path` (which must not exist), 0600.
    func listen(path: String) throws -> any ForwardListener
    /// Holds SIGINT, SIGQUIT, SIGTERM and SIGHUP back from now on.
    func holdStopSignals()
    /// A held stop signal, taken; false when none came.
    func stopRequested() -> Bool
    /// Appends one line to `forward.log` (0600).
    func log(_ line: String)
    /// The live forwards of this user, oldest first.
    func liveForwards() -> [ForwardRecord]
    /// Removes the directories (record, socket, control socket) of this user's forwards whose
    /// process is gone: a `kcauth ssh` or `forward-agent` killed with SIGKILL cleans up nothing.
    func removeOrphans()
}
