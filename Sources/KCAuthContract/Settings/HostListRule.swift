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

        /// Parses one word; nil when it is not a host or host:port. Over bytes (the front runs it
        /// for every git and docker request, docs/performance.md §4): only ASCII can spell one.
        public init?(_ text: String) {
            var copy = text
            guard let parsed = copy.withUTF8({ Self.parse($0) }) else { return nil }
            host = parsed.host
            port = parsed.port
        }

        private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> (host: String, port: UInt16?)? {
            let n = b.count
            guard n > 0, n <= 255 else { return nil }
            var i = 0
            while i < n { if b[i] >= 0x80 { return nil }; i += 1 }
            var nameEnd = n, portStart = -1
            if b[0] == UInt8(ascii: "[") {
                // An IPv6 literal: [::1] or [::1]:8443.
                var close = 1
                while close < n, b[close] != UInt8(ascii: "]") { close += 1 }
                guard close < n else { return nil }
                nameEnd = close + 1
                if nameEnd < n {
                    guard b[nameEnd] == UInt8(ascii: ":") else { return nil }
                    portStart = nameEnd + 1
                }
                i = 1
                while i < close {
                    let c = b[i]
                    guard IssuerRule.isHex(c) || c == UInt8(ascii: ":") || c == UInt8(ascii: ".") else { return nil }
                    i += 1
                }
            } else {
                var colon = 0
                while colon < n, b[colon] != UInt8(ascii: ":") { colon += 1 }
                if colon < n {
                    nameEnd = colon
                    portStart = colon + 1
                }
                guard nameEnd > 0 else { return nil }
                i = 0
                while i < nameEnd {
                    let c = b[i]
                    guard IssuerRule.isAlpha(c) || IssuerRule.isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") else { return nil }
                    i += 1
                }
            }
            var port: UInt16?
            if portStart >= 0 {
                // One to five digits, no sign (UInt16(String) would take `+`), 1–65535.
                guard let p = ASCIIText.decimal(b, portStart, n, maxDigits: 5), p > 0, p <= 65_535 else { return nil }
                port = UInt16(p)
            }
            var lower = [UInt8](repeating: 0, count: nameEnd)
            i = 0
            while i < nameEnd { let c = b[i]; lower[i] = c >= 0x41 && c <= 0x5A ? c + 32 : c; i += 1 }
            return (String(decoding: lower, as: UTF8.self), port)
        }

        public var description: String {
            guard let port else { return host }
            return host + ":" + ASCIIText.decimalString(UInt64(port))
        }

        /// A listed `host` serves every port of it; a listed `host:port` only that port.
        public func isServed(by listed: Host) -> Bool {
            listed.host == host && (listed.port == nil || listed.port == port)
        }
    }

    /// The words of a `hosts` value.
    public static func words(_ raw: String) -> [Substring] {
        raw.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    }

    /// The hosts, or the first word that is not one. ASCII text is split over bytes (the front
    /// reads every profile's `hosts`); other text by ``words(_:)``, whose separators are characters.
    public static func parse(_ raw: String) -> Result<[Host], InvalidWord> {
        var hosts: [Host] = []
        var failed: InvalidWord?
        var copy = raw
        let ascii: Bool? = copy.withUTF8 { b in
            var i = 0
            while i < b.count { if b[i] >= 0x80 { return false }; i += 1 }
            i = 0
            while i < b.count {
                while i < b.count, b[i] == 0x20 || b[i] == 0x2C || b[i] == 0x09 { i += 1 }
                let start = i
                while i < b.count, b[i] != 0x20, b[i] != 0x2C, b[i] != 0x09 { i += 1 }
                guard i > start else { break }
                let word = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
                guard let host = Host(word) else { failed = InvalidWord(word: word); return nil }
                hosts.append(host)
            }
            return true
        }
        if ascii == true { return .success(hosts) }
        if ascii == nil { return .failure(failed!) }
        hosts = []
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
