internal import CLibSecret
import KCAuthCore

/// The keyring half of `kcauth doctor`: session bus reachable → Secret Service present → default
/// collection present and unlocked. Each step says what failed and how to fix it; a step that
/// cannot be tried because an earlier one failed is skipped, so the first failure is the one to
/// fix. Every call has the same deadline as the store's (a wedged bus or a stopped daemon must
/// not hang the doctor either), and nothing here can show an unlock prompt.
public struct KeyringChecks: Sendable {
    private let environment: [String: String]
    private let deadline: Double

    public init(environment: [String: String], deadline: Double = LibSecretStore.defaultDeadline) {
        self.environment = environment
        self.deadline = deadline
    }

    static let bus = ("session-bus", "session bus")
    static let service = ("secret-service", "Secret Service")
    static let collection = ("default-collection", "default collection")

    /// All three skipped, with the reason (the session lives in a file or in memory).
    public static func skipped(_ why: String) -> [DoctorCheck] {
        [bus, service, collection].map { DoctorCheck.skip($0.0, $0.1, why) }
    }

    public func run() -> [DoctorCheck] {
        if let reason = LibSecretEnvironment(environment).missingBusReason {
            return [.fail(Self.bus.0, Self.bus.1, LibSecretMessages.noBus(reason))] + skipAfter(Self.bus.1)
        }
        if let error = connectToBus() {
            return [.fail(Self.bus.0, Self.bus.1, error)] + skipAfter(Self.bus.1)
        }
        let address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? "the runtime directory's bus socket"
        let bus = DoctorCheck.pass(Self.bus.0, Self.bus.1, "connected to \(Sanitize.oneLine(address, limit: 120))")

        let timer = LibSecretDeadline(seconds: deadline, watchdog: false)
        defer { timer.finish() }
        let probe: LibSecretCalls.ProbeResult
        do {
            probe = try LibSecretCalls(deadline: timer).probe()
        } catch let failure as LibSecretFailure {
            let error = failure.storageError(action: "answer", deadline: deadline)
            return [bus, .fail(Self.service.0, Self.service.1, error, remedy: error.code == .storageUnavailable ? .installKeyring : nil),
                    .skip(Self.collection.0, Self.collection.1, "needs the Secret Service")]
        } catch {
            return [bus, .fail(Self.service.0, Self.service.1, KCAuthError.wrapping(error)),
                    .skip(Self.collection.0, Self.collection.1, "needs the Secret Service")]
        }
        let service = DoctorCheck.pass(Self.service.0, Self.service.1, "org.freedesktop.secrets answers")
        let (id, title) = Self.collection
        switch probe {
        case .unlocked:
            return [bus, service, .pass(id, title, "present and unlocked")]
        case .locked(let label):
            return [bus, service, .fail(id, title, LibSecretMessages.locked(label), remedy: .unlockKeyringWithDialog)]
        case .noDefaultCollection:
            return [bus, service, .fail(id, title, LibSecretMessages.noDefaultCollection())]
        }
    }

    private func skipAfter(_ what: String) -> [DoctorCheck] {
        [.skip(Self.service.0, Self.service.1, "needs the \(what)"), .skip(Self.collection.0, Self.collection.1, "needs the \(what)")]
    }

    /// Opens the session bus connection GDBus would use (and caches it, so the probe reuses it).
    private func connectToBus() -> KCAuthError? {
        do { try LibSecretLibrary.load() } catch { return error as? KCAuthError }
        let timer = LibSecretDeadline(seconds: deadline, watchdog: false)
        defer { timer.finish() }
        var error: UnsafeMutablePointer<GError>?
        let connection = kc_g_bus_get_sync(G_BUS_TYPE_SESSION, timer.cancellable, &error)
        if let connection { kc_g_object_unref(UnsafeMutableRawPointer(connection)) }
        guard let error else { return nil }
        let failure = LibSecretFailure(taking: error)
        var mapped = failure.storageError(action: "connect to the session bus", deadline: deadline)
        if mapped.code == .storageNotResponding {
            mapped.message = "the session bus did not answer within \(formatSeconds(deadline))"
            mapped.hint = "the bus at $DBUS_SESSION_BUS_ADDRESS is hung: log out and back in, or fix the variable"
        }
        return mapped
    }
}
