import Foundation
import KCAuthCore

/// A ``CommandLauncher`` that starts nothing: it records what it was asked to run and with which
/// environment, and fails or ends as a test scripts it.
public final class RecordingLauncher: CommandLauncher, @unchecked Sendable {
    private let lock = NSLock()
    /// Every command asked for, with its environment.
    public private(set) var launched: [(arguments: [String], environment: [String: String])] = []
    /// Why a command cannot start (nil: it starts; `replace` then fails with "not found" anyway,
    /// since a test process must not be replaced).
    public var startFailure: CommandStartFailure?
    /// The started command: its exit status after this many polls, and the signals sent to it.
    public var exitStatus: Int32 = 0
    public var pollsBeforeExit = 0
    /// Signals kcauth holds, to be passed on one per poll.
    public var pendingSignals: [Int32] = []
    public private(set) var sentSignals: [Int32] = []
    public private(set) var endedBySignal: Int32?
    /// Called on each poll (a test may change the clock or files there).
    public var onPoll: () -> Void = {}

    public init() {}

    public func replace(with arguments: [String], environment: [String: String]) throws -> Never {
        lock.withLock { launched.append((arguments, environment)) }
        throw startFailure ?? CommandStartFailure(KCAuthError(.usage, "cannot run '\(arguments[0])': No such file or directory"),
                                                  status: CommandStartFailure.notFound)
    }

    public func start(_ arguments: [String], environment: [String: String]) throws -> any RunningCommand {
        lock.withLock { launched.append((arguments, environment)) }
        if let startFailure { throw startFailure }
        return Command(launcher: self)
    }

    public func holdSignals(_ on: Bool) {}

    public func takePendingSignal() -> Int32? {
        lock.withLock { pendingSignals.isEmpty ? nil : pendingSignals.removeFirst() }
    }

    public func end(bySignal signal: Int32) { lock.withLock { endedBySignal = signal } }

    func poll() -> Int32? {
        onPoll()
        return lock.withLock {
            guard pollsBeforeExit == 0 else {
                pollsBeforeExit -= 1
                return nil
            }
            return exitStatus
        }
    }

    func send(_ signal: Int32) { lock.withLock { sentSignals.append(signal) } }

    struct Command: RunningCommand, @unchecked Sendable {
        let launcher: RecordingLauncher
        func poll() -> Int32? { launcher.poll() }
        func send(_ signal: Int32) { launcher.send(signal) }
    }
}
