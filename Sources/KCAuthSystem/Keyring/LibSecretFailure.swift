internal import CLibSecret
import KCAuthCore

/// A GError copied into Swift values; the GError itself is freed at once.
struct LibSecretFailure: Error {
    var domain: String
    var code: Int32
    var message: String
    /// The D-Bus error name when the error came from the other side, e.g.
    /// `org.freedesktop.Secret.Error.IsLocked`.
    var remoteName: String?

    init(domain: String, code: Int32, message: String, remoteName: String? = nil) {
        self.domain = domain
        self.code = code
        self.message = message
        self.remoteName = remoteName
    }

    /// Takes ownership of `error` and frees it.
    init(taking error: UnsafeMutablePointer<GError>) {
        defer { kc_g_error_free(error) }
        domain = kc_g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? "?"
        code = error.pointee.code
        message = error.pointee.message.map { String(cString: $0) } ?? ""
        if let remote = kc_g_dbus_error_get_remote_error(error) {
            remoteName = String(cString: remote)
            kc_g_free(remote)
        }
    }

    /// `domain#code: message [remote name]`, the format of the notes' tables; goes into `cause`.
    var summary: String {
        "\(domain)#\(code): \(message)" + (remoteName.map { " [\($0)]" } ?? "")
    }
}


extension LibSecretFailure {
    /// Maps a libsecret/GDBus error to one of the three storage states (notes §4.6).
    ///
    /// - Parameters:
    ///   - action: what was being done, for the generic message ("read the item").
    ///   - deadline: the operation's deadline in seconds, for the "did not answer" message.
    func storageError(action: String, deadline: Double) -> KCAuthError {
        let io = "g-io-error-quark", dbus = "g-dbus-error-quark", secret = "secret-error"

        // Not responding: our own deadline (G_IO_ERROR_CANCELLED) or a GDBus reply timeout.
        if (domain == io && (code == G_IO_ERROR_CANCELLED.rawValue || code == G_IO_ERROR_TIMED_OUT.rawValue))
            || (domain == dbus && [G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT]
                .contains(where: { code == $0.rawValue })) {
            return LibSecretMessages.notResponding(deadline, cause: summary)
        }
        // Locked: the service refuses to create or read items in a locked collection.
        if (domain == secret && code == SECRET_ERROR_IS_LOCKED.rawValue)
            || remoteName == "org.freedesktop.Secret.Error.IsLocked" {
            return KCAuthError(.storageLocked, "the keyring is locked", cause: summary, remedy: .unlockKeyring)
        }
        // Nobody provides org.freedesktop.secrets on this bus.
        if (domain == dbus && (code == G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue
                               || code == G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue))
            || remoteName == "org.freedesktop.DBus.Error.ServiceUnknown" {
            return KCAuthError(.storageUnavailable, "no Secret Service on the D-Bus session bus",
                               cause: summary, remedy: .startKeyring)
        }
        // Storing into the `default` alias when no login collection exists (gnome-keyring
        // reports UnknownMethod with this text; other providers say NoSuchObject).
        if message.contains("Object does not exist at path")
            || remoteName == "org.freedesktop.Secret.Error.NoSuchObject" {
            return LibSecretMessages.noDefaultCollection(cause: summary)
        }
        // Could not reach the bus at all: autolaunch refused, socket missing or refused.
        let connectCodes = [G_IO_ERROR_FAILED, G_IO_ERROR_NOT_FOUND, G_IO_ERROR_PERMISSION_DENIED,
                            G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_CLOSED, G_IO_ERROR_BROKEN_PIPE]
        if (domain == io && connectCodes.contains(where: { code == $0.rawValue }))
            || domain == "g-spawn-exit-error-quark" || domain == "g-spawn-error-quark"
            || (domain == dbus && code == G_DBUS_ERROR_DISCONNECTED.rawValue) {
            return KCAuthError(.storageUnavailable, "cannot connect to the D-Bus session bus",
                               cause: summary, remedy: .startKeyring)
        }
        return KCAuthError(.storageUnavailable, "the keyring could not \(action)",
                           cause: summary, remedy: .startKeyring)
    }
}
