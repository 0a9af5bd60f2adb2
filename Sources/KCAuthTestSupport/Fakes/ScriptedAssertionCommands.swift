import Foundation
@_exported import KCAuthCore

/// The programs of `command:` assertion sources: never started; each run answers the next
/// scripted outcome (the last repeats) and is recorded with the environment it was given.
public final class ScriptedAssertionCommands: AssertionCommandRunner, @unchecked Sendable {
    private let lock = NSLock()
    public var outcomes: [Result<AssertionCommandOutcome, KCAuthError>] = []
    public private(set) var runs: [(argv: [String], environment: [String: String], seconds: Double)] = []

    public init() {}

    public func run(_ argv: [String], environment: [String: String], seconds: Double, limit: Int) throws -> AssertionCommandOutcome {
        try lock.withLock {
            runs.append((argv, environment, seconds))
            guard let next = outcomes.first else { throw KCAuthError(.internal, "no scripted outcome for \(argv.first ?? "")") }
            if outcomes.count > 1 { outcomes.removeFirst() }
            return try next.get()
        }
    }
}
