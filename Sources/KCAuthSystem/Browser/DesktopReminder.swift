#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `SignInReminder` as a desktop notification: `org.freedesktop.Notifications.Notify` on the
/// session bus, sent by `gdbus call` (GLib's command-line D-Bus client, on every GNOME/GTK
/// desktop) so that kcauth links no D-Bus library for a message it sends once in ten minutes.
///
/// Only where there is a session bus (`DBUS_SESSION_BUS_ADDRESS`, else `/run/user/UID/bus`).
/// The child gets a minimal environment (no token, no client secret: only PATH, the bus
/// address, `XDG_RUNTIME_DIR` and `HOME`), no stdin or stdout (kubectl and git wait for EOF on
/// ours), and at most half a second before kcauth goes on without it.
///
/// Once per profile per ``SignInReminderRule/interval`` across processes: the time of the last
/// reminder is the modification time of `notified-PROFILE` in the lock directory, read and
/// renewed under `flock` so that eight kubectl calls failing at once show one notification.
public struct DesktopReminder: SignInReminder {
    let environment: [String: String]
    /// The notification's text for a profile: how to sign in, in the presentation's words.
    let body: @Sendable (_ profile: String) -> String
    let directory: String?

    public init(environment: [String: String], body: @escaping @Sendable (_ profile: String) -> String,
                directory: String? = Paths.lockDirectory()) {
        self.environment = environment
        self.body = body
        self.directory = directory
    }

    public func remind(profile: String) {
        guard ProfileName.isValid(profile), let bus = busAddress(), claim(profile: profile) else { return }
        let argv = ["gdbus", "call", "--session", "--timeout", "2",
                    "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                    "--method", "org.freedesktop.Notifications.Notify",
                    "'kcauth'", "uint32 0", "''",
                    "'" + SignInReminderRule.summary(profile: profile) + "'", "'" + body(profile) + "'",
                    "@as []", "@a{sv} {}", "int32 -1"]
        var childEnvironment = ["DBUS_SESSION_BUS_ADDRESS": bus, "PATH": environment["PATH"] ?? "/usr/bin:/bin"]
        for name in ["XDG_RUNTIME_DIR", "HOME"] { childEnvironment[name] = environment[name] }
        guard let pid = try? QuietChild.spawnQuiet(argv, environment: childEnvironment) else { return }
        QuietChild.reap(pid, within: 0.5)
    }

    func busAddress() -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        let socket = "/run/user/\(geteuid())/bus"
        var info = stat()
        guard lstat(socket, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else { return nil }
        return "unix:path=" + socket
    }

    /// True when no reminder for the profile was shown within the interval (and now one is).
    func claim(profile: String) -> Bool {
        guard let directory, (try? AtomicFile.makeDirectory(directory)) != nil,
              (try? PrivateFile.checkDirectory(directory, repair: true)) != nil else { return false }
        let fd = open(directory + "/notified-" + profile, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // Another process deciding right now will remind (or just did): no need to wait for it.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { return false }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // A new file is empty: its creation time is not a reminder.
        if info.st_size > 0, Double(now.tv_sec - info.st_mtim.tv_sec) < SignInReminderRule.interval { return false }
        _ = pwrite(fd, "1", 1, 0)
        _ = futimens(fd, nil)
        return true
    }
}
