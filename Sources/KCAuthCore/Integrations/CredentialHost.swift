/// A server as git and docker name it, reduced to what a profile's `hosts` setting lists:
/// a lower-case host name or IP literal, with the port when one is given (`host:8443`).
public struct CredentialHost: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16?

    public init?(_ text: String) {
        let s = text.lowercased()
        guard !s.isEmpty, s.utf8.count <= 255 else { return nil }
        var name = Substring(s)
        var portText: Substring?
        if name.hasPrefix("[") {
            // An IPv6 literal: [::1] or [::1]:8443.
            guard let close = name.firstIndex(of: "]") else { return nil }
            let rest = name[name.index(after: close)...]
            name = name[...close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
            guard name.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            if let colon = name.firstIndex(of: ":") {
                portText = name[name.index(after: colon)...]
                name = name[..<colon]
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else { return nil }
        }
        if let portText {
            guard let p = UInt16(portText), p > 0 else { return nil }
            port = p
        }
        host = String(name)
    }

    public var description: String { port.map { "\(host):\($0)" } ?? host }

    /// Loopback is the one place a bearer token may travel over plain http (a local proxy or a
    /// test server): a numeric 127.0.0.0/8 or ::1 address, never a name (`CredentialTransport`).
    public var isLoopback: Bool { CredentialTransport.isLoopbackAddress(host) }

    /// A listed `host` serves every port of it; a listed `host:port` only that port.
    public func isServed(by listed: CredentialHost) -> Bool {
        listed.host == host && (listed.port == nil || listed.port == port)
    }
}
