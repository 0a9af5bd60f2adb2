/// What `doctor --bundle` asks of the machine: its facts (``HostFacts``), a private directory
/// for the trace of the bundle's `token`, and the archive written where the person said. The
/// real one is in KCAuthSystem.
public protocol BundleHost: Sendable {
    func facts() -> HostFacts
    /// Refuses a target that cannot be written before anything is collected: a directory that
    /// does not exist, or a symbolic link (never followed: the archive replaces no link's target).
    func checkTarget(_ path: String) throws
    /// A new private (0700) directory; ``remove(_:)`` removes it and what is in it.
    func privateDirectory() throws -> String
    /// A file's bytes (the trace written in the private directory).
    func read(_ path: String) throws -> [UInt8]
    func remove(_ directory: String)
    /// The members as a gzip-compressed ustar archive, written atomically: a 0600 temporary
    /// file in the target's directory, renamed over `path`.
    func write(_ members: [BundleMember], to path: String) throws
}
