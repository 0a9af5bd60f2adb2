import Foundation
import KCAuthCore

/// The system ssh as a script: each run takes the next result (status and standard output) and
/// is recorded with its environment; a run with `whileWaiting` calls it `waits` times first.
public final class ScriptedSSH: SSHClient, @unchecked Sendable {
    private let mutex = NSLock()
    public var results: [(status: Int32, output: String)]
    /// Paths that exist (the control socket once a master ran).
    public var existing: Set<String> = []
    public var waits = 3
    public private(set) var runs: [(arguments: [String], environment: [String: String])] = []

    public init(results: [(status: Int32, output: String)] = []) { self.results = results }

    public func run(_ arguments: [String], environment: [String: String], captureOutput: Bool, quiet: Bool, seconds: Int?,
                    whileWaiting: (() -> Void)?) throws -> (status: Int32, output: [UInt8]) {
        let result = mutex.withLock { () -> (status: Int32, output: String) in
            runs.append((arguments, environment))
            if let control = arguments.first(where: { $0.hasPrefix("ControlPath=") }), arguments.contains("ControlMaster=yes") {
                existing.insert(String(control.dropFirst("ControlPath=".count)))
            }
            return results.isEmpty ? (0, "") : results.removeFirst()
        }
        if let whileWaiting { for _ in 0..<waits { whileWaiting() } }
        return (result.status, captureOutput ? Array(result.output.utf8) : [])
    }

    public func exists(_ path: String) -> Bool { mutex.withLock { existing.contains(path) } }

    public func waitUntilGone(_ path: String, milliseconds: Int) { _ = mutex.withLock { existing.remove(path) } }
}
