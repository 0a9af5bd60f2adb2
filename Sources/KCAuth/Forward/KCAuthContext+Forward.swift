import KCAuthCore

extension KCAuthContext {
    /// `ssh`: the system ssh with this session lent for the connection.
    public func sshForward() -> SSHForward { SSHForward(context: self) }

    /// `forward-agent`: this session lent on a socket, for plain ssh.
    public func forwardAgent() -> ForwardAgent { ForwardAgent(context: self) }

    /// The remote side of a forward: tokens from the laptop.
    public func forwardedToken() -> ForwardedToken { ForwardedToken(context: self) }

    /// The live forwards of this user (for `status`).
    public func liveForwards() -> [ForwardRecord] { adapters.forwardHost().liveForwards() }
}
