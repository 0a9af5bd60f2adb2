import Testing
import KCAuthCore
@testable import KCAuthSystem

/// libsecret's GErrors → kcauth's three storage states (see the Secret Service notes, §4.6).
@Suite struct LibSecretFailureMappingTests {
    static func m(_ d: String, _ c: Int32, _ msg: String, _ r: String? = nil) -> KCAuthError {
        LibSecretFailure(domain: d, code: c, message: msg, remoteName: r).storageError(action: "store the item", deadline: 5)
    }

    @Test func gErrorsMapToNoKeyringLockedOrNotResponding() {
        #expect(Self.m("g-io-error-quark", 0, "Cannot autolaunch D-Bus without X11 $DISPLAY").code == .storageUnavailable)
        #expect(Self.m("g-spawn-exit-error-quark", 1, "Error spawning command line").code == .storageUnavailable)
        #expect(Self.m("g-io-error-quark", 1, "Could not connect: No such file or directory").code == .storageUnavailable)
        #expect(Self.m("g-io-error-quark", 19, "Operation was cancelled").code == .storageNotResponding)
        #expect(Self.m("g-io-error-quark", 19, "Operation was cancelled").message == "the keyring did not answer within 5 s")
        #expect(Self.m("g-io-error-quark", 24, "Timeout was reached").code == .storageNotResponding)
        let sk = Self.m("g-dbus-error-quark", 2, "The name org.freedesktop.secrets was not provided by any .service files", "org.freedesktop.DBus.Error.ServiceUnknown")
        #expect(sk.code == .storageUnavailable && sk.message == "no Secret Service on the D-Bus session bus")
        #expect(sk.cause == "g-dbus-error-quark#2: The name org.freedesktop.secrets was not provided by any .service files [org.freedesktop.DBus.Error.ServiceUnknown]")
        let nd = Self.m("g-dbus-error-quark", 19, "Object does not exist at path \u{201C}/org/freedesktop/secrets/collection/login\u{201D}", "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(nd.code == .storageUnavailable && nd.message.contains("no default collection"))
        #expect(Self.m("secret-error", 2, "Cannot create an item in a locked collection", "org.freedesktop.Secret.Error.IsLocked").code == .storageLocked)
        #expect(Self.m("g-dbus-error-quark", 0, "weird").message == "the keyring could not store the item")
    }

    @Test func secondsAreShortAndReadable() {
        #expect(formatSeconds(5) == "5 s" && formatSeconds(2.5) == "2.5 s" && formatSeconds(0.05) == "0.1 s")
    }

    @Test func busPreCheckNeedsNoLibsecret() {
        #expect(LibSecretEnvironment(["HOME": "/nonexistent"]).missingBusReason == "DBUS_SESSION_BUS_ADDRESS is not set and /nonexistent/.cache/bus does not exist")
        #expect(LibSecretEnvironment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]).missingBusReason == nil)
        #expect(LibSecretEnvironment([:]).missingBusReason != nil)
        #expect(LibSecretEnvironment(["DISPLAY": ""]).hasDisplay == false)
        #expect(LibSecretEnvironment(["WAYLAND_DISPLAY": "wayland-0"]).hasDisplay)
    }
}
