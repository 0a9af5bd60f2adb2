import Foundation
import KCAuthCore

/// A forward's laptop in memory: directories and records kept in a dictionary, log lines kept,
/// one ``ScriptedForwardListener`` per path, and a stop signal after `stopAfter` polls.
public final class FakeForwardHost: ForwardHost, @unchecked Sendable {
    private let mutex = NSLock()
    private var count = 0
    private var polls = 0
    /// Live directories and the record in each.
    public private(set) var records: [String: ForwardRecord] = [:]
    public private(set) var directories: Set<String> = []
    public private(set) var logLines: [String] = []
    public private(set) var listeners: [ScriptedForwardListener] = []
    public private(set) var signalsHeld = false
    /// Requests each new listener is given to answer, in order.
    public var requests: [ForwardMessage.Request] = []
    /// `stopRequested` answers true from this poll on.
    public var stopAfter = 1
    /// What is wrong with a socket path a person chose; none unless a test says so.
    public var socketPathProblems: [String: SocketPathProblem] = [:]

    public init() {}

    public var processID: Int32 { 4242 }

    public func makeDirectory() throws -> String {
        mutex.withLock {
            count += 1
            let path = "/run/kcauth/forward-\(count)"
            directories.insert(path)
            return path
        }
    }

    public func write(_ record: ForwardRecord, in directory: String) { mutex.withLock { records[directory] = record } }

    public func remove(directory: String, files: [String]) {
        mutex.withLock {
            directories.remove(directory)
            records[directory] = nil
        }
    }

    public func socketPathProblem(_ path: String) -> SocketPathProblem? { mutex.withLock { socketPathProblems[path] } }

    public func listen(path: String) throws -> any ForwardListener {
        mutex.withLock {
            let listener = ScriptedForwardListener(path: path, requests: requests)
            listeners.append(listener)
            return listener
        }
    }

    public func holdStopSignals() { mutex.withLock { signalsHeld = true } }

    public func stopRequested() -> Bool {
        mutex.withLock {
            polls += 1
            return polls >= stopAfter
        }
    }

    public func log(_ line: String) { mutex.withLock { logLines.append(line) } }

    public func liveForwards() -> [ForwardRecord] { mutex.withLock { records.values.sorted { $0.started < $1.started } } }

    /// Directories of forwards whose process is gone, as a test planted them; removed by
    /// ``removeOrphans()``.
    public var orphans: Set<String> = []

    public func removeOrphans() { mutex.withLock { orphans.removeAll() } }
}
