import Foundation
@_exported import KCAuthCore

/// Environment and files for client credentials, in memory; counts reads so tests can see that
/// an assertion is re-read per request.
public final class FakeCredentialReader: CredentialReader, @unchecked Sendable {
    public var environment: [String: String] = [:]
    public var files: [String: [UInt8]] = [:]
    public private(set) var fileReads = 0

    public init() {}

    public func environmentValue(_ name: String) -> String? { environment[name] }

    public func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        fileReads += 1
        guard let bytes = files[path] else {
            throw KCAuthError(.configuration, "cannot read \(path): No such file or directory")
        }
        guard bytes.count <= limit else {
            throw KCAuthError(.configuration, "cannot use \(path): it is larger than \(limit) bytes")
        }
        return bytes
    }
}
