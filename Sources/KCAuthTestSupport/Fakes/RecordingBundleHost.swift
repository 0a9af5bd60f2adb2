import Foundation
import KCAuthCore

/// `doctor --bundle`'s machine, as a test gives it: fixed facts, and the archives it was asked to
/// write kept by path instead of written.
public final class RecordingBundleHost: BundleHost, @unchecked Sendable {
    private let lock = NSLock()
    private var archives: [String: [BundleMember]] = [:]
    public var hostFacts = HostFacts(osRelease: "ID=debian\n", uname: ["Linux", "6.1.0", "#1", "x86_64"], executable: "/usr/libexec/kcauth/kcauth-full",
                                     libraries: [HostFacts.Library(name: "libcurl", version: "7.88.1")])

    public init() {}

    /// The members written to each path.
    public var written: [String: [BundleMember]] { lock.withLock { archives } }

    public func facts() -> HostFacts { hostFacts }
    public func checkTarget(_ path: String) throws {}
    public func privateDirectory() throws -> String { throw KCAuthError(.internal, "a test gives no private directory") }
    public func read(_ path: String) throws -> [UInt8] { throw KCAuthError(.internal, "a test reads no file") }
    public func remove(_ directory: String) {}
    public func write(_ members: [BundleMember], to path: String) throws { lock.withLock { archives[path] = members } }
}
