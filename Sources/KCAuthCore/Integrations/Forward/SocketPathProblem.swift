/// Why a socket may not be created at a path a person chose (the forward agent's socket): nobody
/// else may be able to reach or replace it.
public enum SocketPathProblem: Error, Sendable, Equatable {
    /// Its directory (this) does not exist or is not a directory.
    case notADirectory(String)
    /// Its directory (this) is not the user's, or others may enter it.
    case notPrivate(String)
    /// Something is at the path already.
    case exists(String)
}
