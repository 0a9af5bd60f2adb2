/// Where a forwarded session is announced on a remote host. `kcauth ssh` sends this variable over
/// the connection: ssh passes `LC_*` through stock Debian `sshd_config` (`AcceptEnv LANG LC_*`),
/// so the remote side needs no setup. When it is set, every answer comes from the laptop: the
/// front hands off (``CacheGate/environmentAllows(_:)``), and kcauth-full reads nothing stored.
public enum ForwardRule {
    public static let variable = "LC_KCAUTH_FORWARD"

    /// The socket path the environment names, when it names one (absolute only).
    public static func socket(_ value: (String) -> String?) -> String? {
        guard let path = value(variable), path.hasPrefix("/") else { return nil }
        return path
    }

    /// Whether a forward is announced at all (even a malformed one: kcauth-full says why).
    public static func announced(_ value: (String) -> String?) -> Bool {
        !(value(variable) ?? "").isEmpty
    }
}
