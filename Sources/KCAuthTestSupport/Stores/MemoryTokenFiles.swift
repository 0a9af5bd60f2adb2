import Foundation
import KCAuthCore

/// `exec --keep-fresh`'s token files, in memory: every write kept in order, and what is left.
public final class MemoryTokenFiles: TokenFiles, @unchecked Sendable {
    private let lock = NSLock()
    public private(set) var files: [String: String] = [:]
    public private(set) var writes: [(path: String, text: String)] = []
    public private(set) var directories: Set<String> = []
    /// Paths where something is before kcauth writes (a test puts them here).
    public var existing: Set<String> = []
    /// How often the leftovers of killed runs were looked for.
    public private(set) var leftoverSweeps = 0

    public init() {}

    public func removeLeftovers() { lock.withLock { leftoverSweeps += 1 } }

    public func exists(_ path: String) -> Bool { lock.withLock { existing.contains(path) || files[path] != nil } }

    public func makePrivateDirectory() throws -> String {
        lock.withLock {
            let directory = "/run/fake/token-\(directories.count + 1)"
            directories.insert(directory)
            return directory
        }
    }

    public func write(_ text: String, to path: String) throws {
        lock.withLock {
            files[path] = text
            writes.append((path, text))
        }
    }

    public func remove(_ path: String, directory: String?) {
        lock.withLock {
            files[path] = nil
            if let directory { directories.remove(directory) }
        }
    }
}
