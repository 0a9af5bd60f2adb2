import Glibc

/// What LibSecretStore needs to know about its environment, decided once in `init`.
///
/// Why a pre-check at all: with no session bus, GDBus would try to *autolaunch* one (with a display
/// that starts a stray `dbus-launch` bus per run), and the user gets a cryptic GIO error. Looking at
/// the two places GDBus itself looks costs a `stat` and keeps libsecret out of it entirely.
struct LibSecretEnvironment: Sendable {
    /// Why there is no session bus, or nil when there may be one.
    var missingBusReason: String?
    /// A display (X11 or Wayland) is reachable, so the keyring daemon may show an unlock prompt.
    var hasDisplay: Bool

    init(_ environment: [String: String]) {
        func value(_ name: String) -> String? {
            guard let v = environment[name], !v.isEmpty else { return nil }
            return v
        }
        hasDisplay = value("DISPLAY") != nil || value("WAYLAND_DISPLAY") != nil

        if value("DBUS_SESSION_BUS_ADDRESS") != nil {
            missingBusReason = nil
            return
        }
        // GDBus's fallback is `g_get_user_runtime_dir()/bus`; GLib uses the cache dir when
        // XDG_RUNTIME_DIR is unset, so mirror that rather than declare "no bus" too early.
        let runtimeDir = value("XDG_RUNTIME_DIR")
            ?? value("XDG_CACHE_HOME")
            ?? value("HOME").map { $0 + "/.cache" }
        guard let runtimeDir else {
            missingBusReason = "DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set"
            return
        }
        let socket = runtimeDir + "/bus"
        if access(socket, F_OK) == 0 {
            missingBusReason = nil
        } else {
            missingBusReason = "DBUS_SESSION_BUS_ADDRESS is not set and \(socket) does not exist"
        }
    }
}
