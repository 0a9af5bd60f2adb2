import Foundation
@_exported import KCAuthCore

/// The desktop reminder, recorded: which profiles were reminded about, in order.
public final class RecordingReminder: SignInReminder, @unchecked Sendable {
    private let lock = NSLock()
    private var reminded: [String] = []

    public init() {}

    public var profiles: [String] { lock.withLock { reminded } }

    public func remind(profile: String) { lock.withLock { reminded.append(profile) } }
}
