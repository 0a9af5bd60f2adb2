/// A profile's `hosts` setting (the servers the git and docker helpers answer for):
/// host names, IP literals and `host:port`, separated by spaces, tabs or commas.
public enum HostListRule {
    /// A listed server: a lower-case host name or IP literal (`[::1]`), and its port if given.
    public struct Host: Sendable, Equatable {
        public var host: String
        public var port: UInt16?

        public init(host: String, port: UInt16?) {
            self.host = host
            self.port = port
        }

        /// Parses one word; nil when it is not a host or host:port.
        public init?(_ text: String) {
            let s = String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
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
                guard name.dropFirst().dropLast().utf8.allSatisfy({ IssuerRule.isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
                else { return nil }
            } else {
                if let colon = name.firstIndex(of: ":") {
                    portText = name[name.index(after: colon)...]
                    name = name[..<colon]
                }
                guard !name.isEmpty, name.utf8.allSatisfy({ IssuerRule.isAlpha($0) || IssuerRule.isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
                else { return nil }
            }
            if let portText {
                guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy(IssuerRule.isDigit),
                      let p = UInt16(portText), p > 0 else { return nil }
                port = p
            }
            host = String(name)
        }

        public var description: String { port.map { "\(host):\($0)" } ?? host }

        /// A listed `host` serves every port of it; a listed `host:port` only that port.
        public func isServed(by listed: Host) -> Bool {
            listed.host == host && (listed.port == nil || listed.port == port)
        }
    }

    /// The words of a `hosts` value.
    public static func words(_ raw: String) -> [Substring] {
        raw.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    }

    /// The hosts, or the first word that is not one.
    public static func parse(_ raw: String) -> Result<[Host], InvalidWord> {
        var hosts: [Host] = []
        for word in words(raw) {
            guard let host = Host(String(word)) else { return .failure(InvalidWord(word: String(word))) }
            hosts.append(host)
        }
        return .success(hosts)
    }

    public struct InvalidWord: Error, Sendable, Equatable {
        public var word: String
    }
}
