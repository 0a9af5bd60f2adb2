#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// What every program kcauth starts inherits of its signals: an empty mask and the default
/// dispositions, whatever kcauth blocks (``ProcessSignals`` blocks the signals it takes in every
/// thread) or a parent ignored — a browser, ssh or the user's command must not start with them.
enum SpawnSignals {
    /// Sets `attributes` for that; `flags` are added to the signal flags (e.g. POSIX_SPAWN_SETPGROUP).
    static func reset(_ attributes: inout posix_spawnattr_t, flags: Int32 = 0) {
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in CommandExec.defaultedSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | flags))
    }
}
