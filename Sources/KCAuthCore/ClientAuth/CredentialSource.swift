/// Where a client credential (a secret, or a platform's pre-signed assertion) is read from:
/// an environment variable's name or a file's path. This is what a profile records; the
/// credential itself is never stored by kcauth and never put in argv.
public enum CredentialSource: Sendable, Equatable, Codable, CustomStringConvertible {
    case environment(String)
    case file(String)

    /// For messages and `status`: `$KCAUTH_CLIENT_SECRET` or `file /run/secrets/client`.
    public var description: String {
        switch self {
        case .environment(let name): "$\(name)"
        case .file(let path): "file \(path)"
        }
    }

    /// The credential's text: at most `limit` bytes, valid UTF-8, trailing line breaks removed
    /// (files written by `echo` or editors end in one), not empty. `what` names the credential in
    /// errors ("the client secret"); no error ever contains the value.
    public func read(using reader: any CredentialReader, what: String, limit: Int) throws -> String {
        let bytes: [UInt8]
        switch self {
        case .environment(let name):
            guard let value = reader.environmentValue(name) else {
                throw KCAuthError(.configuration, "\(what) is to come from $\(name), which is not set",
                                  hint: "export \(name) in the job's environment (from the CI system's secret store)")
            }
            bytes = Array(value.utf8)
            guard bytes.count <= limit else {
                throw KCAuthError(.configuration, "\(what) in $\(name) is longer than \(limit) bytes")
            }
        case .file(let path):
            bytes = try reader.readFile(path, limit: limit)
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw KCAuthError(.configuration, "\(what) in \(self) is not UTF-8 text")
        }
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" {
            text.unicodeScalars.removeLast()
        }
        guard !text.isEmpty else {
            throw KCAuthError(.configuration, "\(what) in \(self) is empty")
        }
        return text
    }
}
