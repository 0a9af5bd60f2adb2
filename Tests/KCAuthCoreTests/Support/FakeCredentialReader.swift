@testable import KCAuthCore

/// Environment and files for client credentials, in memory; counts reads so tests can see that
/// an assertion is re-read per request.
final class FakeCredentialReader: CredentialReader, @unchecked Sendable {
    var environment: [String: String] = [:]
    var files: [String: [UInt8]] = [:]
    private(set) var fileReads = 0

    func environmentValue(_ name: String) -> String? { environment[name] }

    func readFile(_ path: String, limit: Int) throws -> [UInt8] {
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
