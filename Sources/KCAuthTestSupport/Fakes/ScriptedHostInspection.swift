import Foundation
import KCAuthCore

/// `doctor`'s machine, as a test scripts it: every check passes unless a test says otherwise,
/// and each call is recorded (which store was looked at, for which profile).
public final class ScriptedHostInspection: HostInspection, @unchecked Sendable {
    private let lock = NSLock()
    public var keyringChecks: [DoctorCheck] = [.pass("session-bus", "session bus", "connected"),
                                               .pass("secret-service", "Secret Service", "org.freedesktop.secrets answers"),
                                               .pass("default-collection", "default collection", "present and unlocked")]
    public var fileStoreCheck = DoctorCheck.pass("state-file", "session file", "no session stored yet")
    public var encryptedChecks: [DoctorCheck] = [.pass("store-key", "encrypted store key file", "not created yet")]
    public var runtimeDirectoryCheck = DoctorCheck.pass("runtime-dir", "runtime directory", "/run/user/1000 is private and writable")
    public var browserCheck = DoctorCheck.pass("browser", "browser launcher", "/usr/bin/xdg-open")
    public var caFileCheck = DoctorCheck.pass("ca-file", "CA file", "1 PEM certificate")
    private var recorded: [String] = []

    public init() {}

    /// What was asked, e.g. `keyring`, `keyring skipped`, `file default`.
    public var calls: [String] { lock.withLock { recorded } }

    private func record(_ call: String) { lock.withLock { recorded.append(call) } }

    public func keyring(skipped reason: String?) -> [DoctorCheck] {
        record(reason == nil ? "keyring" : "keyring skipped")
        guard let reason else { return keyringChecks }
        return keyringChecks.map { DoctorCheck.skip($0.id, $0.title, reason) }
    }

    public func fileStore(profile: String) -> DoctorCheck {
        record("file \(profile)")
        return fileStoreCheck
    }

    public func encryptedStore(profile: String) -> [DoctorCheck] {
        record("encrypted \(profile)")
        return encryptedChecks
    }

    public func runtimeDirectory() -> DoctorCheck { runtimeDirectoryCheck }

    public func browser() -> DoctorCheck { browserCheck }

    public func caFile(_ path: String) -> DoctorCheck {
        record("ca-file \(path)")
        return caFileCheck
    }
}
