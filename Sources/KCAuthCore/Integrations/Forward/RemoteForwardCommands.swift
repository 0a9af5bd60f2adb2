/// The commands `kcauth ssh` runs on the remote host, through the user's login shell (whatever
/// it is: each is one line, with nothing but single quotes for `sh`).
public enum RemoteForwardCommands {
    /// The prefix of a forward's directory there (`mktemp -d -t`: in `$TMPDIR`, else `/tmp`).
    public static let directoryPrefix = "kcauth-forward."

    /// Removes what earlier connections of this user left behind — a `kcauth-forward.*`
    /// directory whose socket nothing listens on any more (the connection dropped, or the laptop's
    /// kcauth was killed), or one left empty for ten minutes (killed before the forward) — then
    /// makes this connection's directory (0700) and prints its path.
    ///
    /// A socket is live while some socket is bound to its path: the kernel lists those in
    /// `/proc/net/unix` (proc(5)); without that file nothing is removed. A directory whose
    /// socket is live, another user's, or not empty is left alone (`rmdir`, never `rm -r`).
    public static let setUp = "sh -c '"
        + "u=/proc/net/unix; [ -r $u ] || exit 0; "
        + "for d in \"${TMPDIR:-/tmp}\"/\(directoryPrefix)??????????; do "
        + "[ -d \"$d\" ] && [ -O \"$d\" ] || continue; [ -L \"$d\" ] && continue; s=\"$d/agent.sock\"; "
        + "if [ -S \"$s\" ]; then grep -qF -- \" $s\" $u && continue; rm -f -- \"$s\"; rmdir -- \"$d\"; "
        + "elif [ -n \"$(find \"$d\" -maxdepth 0 -empty -mmin +10)\" ]; then rmdir -- \"$d\"; fi; "
        + "done 2>/dev/null'; "
        + "mktemp -d -t \(directoryPrefix)XXXXXXXXXX"

    /// Removes this connection's directory (a path ``isSafeDirectory(_:)`` accepted).
    public static func removal(_ directory: String) -> String { "rm -rf -- '\(directory)'" }

    /// What `mktemp -d -t` prints: an absolute path of plain characters, nothing a shell or
    /// ssh's forwarding syntax would read differently.
    public static func isSafeDirectory(_ path: String) -> Bool {
        path.hasPrefix("/") && path.contains("/" + directoryPrefix) && path.count < 80
            && path.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2F || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
            && !path.contains("..")
    }
}
