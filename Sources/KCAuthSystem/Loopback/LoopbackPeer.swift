import Glibc

/// Who may use the listener's start URL and callback: only the user who runs the login.
///
/// Any local user can connect to 127.0.0.1, and the start URL is in the browser's argv, which
/// every local user can read in /proc/PID/cmdline. The kernel knows which user created the
/// client's socket (`SockDiagLookup`), so the listener serves those paths only to connections
/// whose other end belongs to:
/// - the user running kcauth (`getuid`, or `geteuid` for a set-uid launcher);
/// - root. On WSL2 the Windows browser's connection to 127.0.0.1 arrives through WSL's
///   localhost relay, a root process on the Linux side (`init`, `localhost --localhost-relay`),
///   in both NAT and mirrored networking. Root can read this user's files and memory anyway, so
///   refusing it protected nothing and made WSL sign-in impossible.
///
/// Every other owner is refused, and so is a connection whose owner cannot be established: this
/// check never fails open. (It used to allow the connection when /proc/net/tcp was unreadable or
/// larger than its read limit, which another user can bring about by holding many half-open
/// connections, and then fix the victim's login to their own account.)
enum LoopbackPeer {
    enum Verdict: Equatable, Sendable {
        case allowed(uid: UInt32)
        /// `uid` is the owner's, nil when it could not be established.
        case refused(uid: UInt32?)
    }

    /// The users whose connections are served.
    static var trustedUsers: Set<UInt32> { [getuid(), geteuid(), 0] }

    /// The verdict for a connection whose client socket belongs to `owner`.
    static func verdict(for owner: PeerOwner, trusting users: Set<UInt32> = trustedUsers) -> Verdict {
        switch owner {
        case .user(let uid): return users.contains(uid) ? .allowed(uid: uid) : .refused(uid: uid)
        case .unknown: return .refused(uid: nil)
        }
    }

    /// The verdict for the connection accepted on `fd`; `lookup` finds the client socket's owner.
    static func check(_ fd: Int32, lookup: (Int32) -> PeerOwner = SockDiagLookup.owner(ofPeerOf:)) -> Verdict {
        verdict(for: lookup(fd))
    }
}
