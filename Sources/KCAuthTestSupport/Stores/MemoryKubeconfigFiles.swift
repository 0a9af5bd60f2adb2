import Foundation
import KCAuthCore

/// Kubeconfig files in memory, with the backup a merge keeps (`FILE.bak`).
public final class MemoryKubeconfigFiles: KubeconfigFiles, @unchecked Sendable {
    private let lock = NSLock()
    public var files: [String: String] = [:]

    public init() {}

    public func update(_ path: String, _ change: (String?) throws -> String) throws -> Bool {
        let old = lock.withLock { files[path] }
        let new = try change(old)
        lock.withLock {
            if let old { files[path + ".bak"] = old }
            files[path] = new
        }
        return old != nil
    }
}
