#if canImport(Glibc)
import Glibc
#endif

/// What every program kcauth starts inherits of its signals: an empty mask and the default
/// dispositions, whatever kcauth blocks or ignores while it waits (SIGINT handling, SIGPIPE) —
/// a browser or ssh must not start with them.
enum SpawnSignals {
    /// Sets `attributes` for that; `flags` are added to the signal flags (e.g. POSIX_SPAWN_SETPGROUP).
    static func reset(_ attributes: inout posix_spawnattr_t, flags: Int32 = 0) {
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | flags))
    }
}
