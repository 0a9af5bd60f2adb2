/// Where client credentials come from at run time: environment variables and small files.
///
/// A port so that the core decides *what* to read and how to judge it, while the system adapter
/// (`SystemCredentialReader`) does the I/O with a size cap and without ever blocking (a FIFO
/// given as a secret file must not hang a CI job).
public protocol CredentialReader: Sendable {
    /// The variable's value, or nil when it is not set.
    func environmentValue(_ name: String) -> String?

    /// The whole file, at most `limit` bytes. Throws `KCAuthError(.configuration)` when the file
    /// is missing, unreadable, not a regular file or larger than `limit`; the message names the
    /// path and never the content.
    func readFile(_ path: String, limit: Int) throws -> [UInt8]
}
