import Foundation
import Testing
@_exported import KCAuthCore

public final class RecordingOpener: URLOpener, @unchecked Sendable {
    private let lock = NSLock()
    public private(set) var opened: [String] = []
    public var failure: KCAuthError?
    public init() {}
    public func open(_ url: String) throws {
        lock.withLock { opened.append(url) }
        if let failure { throw failure }
    }
}
