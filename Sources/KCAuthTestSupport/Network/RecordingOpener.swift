import Foundation
import Testing
@_exported import KCAuthCore

public final class RecordingOpener: URLOpener, @unchecked Sendable {
    private let lock = NSLock()
    public private(set) var opened: [String] = []
    public var failure: KCAuthError?
    public init() {}
    /// Records the URL as the browser would get it (a fake: it may reveal).
    public func open(_ url: WireText) throws {
        lock.withLock { opened.append(url.reveal()) }
        if let failure { throw failure }
    }
}
