import KCAuthContract
/// A server as git and docker name it, reduced to what a profile's `hosts` setting lists:
/// a lower-case host name or IP literal, with the port when one is given (`host:8443`).
public struct CredentialHost: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16?

    /// The contract's parse (``HostListRule``), which the front applies to the same text.
    public init?(_ text: String) {
        guard let parsed = HostListRule.Host(text) else { return nil }
        host = parsed.host
        port = parsed.port
    }

    /// The same server in the contract's terms (``HostListRule``).
    public var rule: HostListRule.Host { HostListRule.Host(host: host, port: port) }

    public var description: String { port.map { "\(host):\($0)" } ?? host }

    /// Loopback is the one place a bearer token may travel over plain http (a local proxy or a
    /// test server): a numeric 127.0.0.0/8 or ::1 address, never a name (`CredentialTransport`).
    public var isLoopback: Bool { CredentialTransport.isLoopbackAddress(host) }

    /// A listed `host` serves every port of it; a listed `host:port` only that port.
    public func isServed(by listed: CredentialHost) -> Bool {
        listed.host == host && (listed.port == nil || listed.port == port)
    }
}
