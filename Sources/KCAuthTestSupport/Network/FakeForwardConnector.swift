import Foundation
import KCAuthCore

/// The remote side's socket to the laptop: a scripted refusal or reply, and the lines sent.
public final class FakeForwardConnector: ForwardConnector, @unchecked Sendable {
    private let mutex = NSLock()
    public var refusalText: String?
    public var reply: ForwardReply = .noAnswer
    public private(set) var sent: [String] = []

    public init() {}

    public func refusal(path: String) -> String? { refusalText }

    public func exchange(path: String, line: String, answerMilliseconds: Int) throws -> ForwardReply {
        mutex.withLock {
            sent.append(line)
            return reply
        }
    }
}
