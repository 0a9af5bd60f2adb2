import Foundation
import KCAuthCore

/// The remote side's socket to the laptop: a scripted state and reply, the lines sent, and the
/// dead sockets removed.
public final class FakeForwardConnector: ForwardConnector, @unchecked Sendable {
    private let mutex = NSLock()
    public var state: ForwardSocketState = .live
    public var reply: ForwardReply = .noAnswer
    /// When set, gives each exchange's reply (instead of `reply`).
    public var onExchange: (@Sendable () -> ForwardReply)?
    public private(set) var sent: [String] = []
    public private(set) var inspected = 0
    public private(set) var removed: [String] = []

    public init() {}

    public func inspect(path: String) -> ForwardSocketState {
        mutex.withLock {
            inspected += 1
            return state
        }
    }

    public func removeDead(path: String) { mutex.withLock { removed.append(path) } }

    public func exchange(path: String, line: String, answerMilliseconds: Int) throws -> ForwardReply {
        mutex.withLock {
            sent.append(line)
            return onExchange?() ?? reply
        }
    }
}
