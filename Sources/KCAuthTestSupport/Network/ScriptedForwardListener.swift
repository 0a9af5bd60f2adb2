import Foundation
import KCAuthCore

/// A forward's socket that receives the scripted requests, one per `serve`, and keeps the
/// answers.
public final class ScriptedForwardListener: ForwardListener, @unchecked Sendable {
    private let mutex = NSLock()
    public let path: String
    private var pending: [ForwardMessage.Request]
    public private(set) var answers: [String] = []
    public private(set) var closed = false

    public init(path: String, requests: [ForwardMessage.Request]) {
        self.path = path
        pending = requests
    }

    public func serve(milliseconds: Int32, answer: @escaping @Sendable (ForwardMessage.Request) -> String) {
        guard let request = mutex.withLock({ pending.isEmpty ? nil : pending.removeFirst() }) else { return }
        let line = answer(request)
        mutex.withLock { answers.append(line) }
    }

    public func close() { mutex.withLock { closed = true } }
}
