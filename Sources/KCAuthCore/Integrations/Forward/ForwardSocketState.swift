/// What the socket a forward names is on this host (``ForwardConnector/inspect(path:)``). Only a
/// live socket of the user's own, in a directory nobody else can write, is the laptop; a socket
/// that is not here, or not the user's, belongs to another host or person (the variable was
/// carried along by a second hop's `SendEnv LC_*`) and is no reason to refuse this host's own
/// sessions.
public enum ForwardSocketState: Sendable, Equatable {
    /// The user's socket, in a safe directory, and something listens on it.
    case live
    /// Nothing is at the path, or its directory does not exist.
    case absent
    /// The socket, or its directory, belongs to another user (this uid).
    case notYours(uid: UInt32)
    /// The user's socket in a safe directory, but nothing listens: the connection that
    /// forwarded it has ended, and sshd (or a killed kcauth) left it behind.
    case dead
    /// The user's, but others could have placed or replaced it (why, in words): refused.
    case unsafe(String)
}
