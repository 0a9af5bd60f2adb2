/// Which issuer URLs kcauth accepts from a person (flag, environment, configuration file), in
/// both programs. OpenID Connect Discovery 1.0 §2 and RFC 8414 §2: an issuer is an `https` URL
/// with scheme, host, optional port and path, and no query or fragment; tokens and codes travel
/// only over TLS (RFC 6749 §3.1, RFC 9700 §2.6) except to a loopback address, which never leaves
/// the machine. Checked by hand against RFC 3986's grammar (no Foundation: the front uses it).
public enum IssuerRule {
    public enum Refusal: Error, Sendable, Equatable {
        case notAURL
        case queryOrFragment
        case plainHTTP
        case unsupportedScheme(String)
    }

    /// The issuer without one trailing `/` (and without surrounding spaces and tabs), or why not.
    /// Index loops over the bytes (the front checks the issuer on every warm call; docs/performance.md §4).
    public static func normalize(_ raw: String) -> Result<String, Refusal> {
        var copy = raw
        return copy.withUTF8 { normalize($0) }
    }

    private static func normalize(_ b: UnsafeBufferPointer<UInt8>) -> Result<String, Refusal> {
        var lo = 0, hi = b.count
        while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
        if hi > lo, b[hi - 1] == UInt8(ascii: "/") { hi -= 1 }
        var colon = lo
        while colon < hi, b[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < hi, colon > lo, isAlpha(b[lo]) else { return .failure(.notAURL) }
        var i = lo + 1
        while i < colon { guard isSchemeByte(b[i], first: false) else { return .failure(.notAURL) }; i += 1 }
        guard hi - lo >= colon - lo + 3, b[colon + 1] == UInt8(ascii: "/"), b[colon + 2] == UInt8(ascii: "/") else { return .failure(.notAURL) }
        let restStart = colon + 3
        var query = restStart
        while query < hi, b[query] != UInt8(ascii: "?"), b[query] != UInt8(ascii: "#") { query += 1 }
        if query < hi {
            var end = restStart
            while end < hi, b[end] != UInt8(ascii: "/"), b[end] != UInt8(ascii: "?"), b[end] != UInt8(ascii: "#") { end += 1 }
            return authority(b, restStart, end) == nil ? .failure(.notAURL) : .failure(.queryOrFragment)
        }
        var authorityEnd = restStart
        while authorityEnd < hi, b[authorityEnd] != UInt8(ascii: "/") { authorityEnd += 1 }
        guard let host = authority(b, restStart, authorityEnd) else { return .failure(.notAURL) }
        i = authorityEnd
        while i < hi { guard isPathByte(b[i]) else { return .failure(.notAURL) }; i += 1 }
        if ASCIIText.equalsIgnoringASCIICase(b, lo, colon, "https") {
        } else if ASCIIText.equalsIgnoringASCIICase(b, lo, colon, "http") {
            guard ASCIIText.equalsIgnoringASCIICase(b, host.lo, host.hi, "localhost")
                    || CredentialTransport.isLoopbackAddress(String(decoding: UnsafeBufferPointer(rebasing: b[host.lo..<host.hi]), as: UTF8.self))
            else { return .failure(.plainHTTP) }
        } else {
            return .failure(.unsupportedScheme(SettingCheck.asciiLowercased(String(decoding: UnsafeBufferPointer(rebasing: b[lo..<colon]), as: UTF8.self))))
        }
        return .success(String(decoding: UnsafeBufferPointer(rebasing: b[lo..<hi]), as: UTF8.self))
    }

    /// The host's range in `host[:port]` (no user information) of `b[lo..<hi]`, or nil.
    static func authority(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> (lo: Int, hi: Int)? {
        var close = hi - 1
        while close >= lo, b[close] != UInt8(ascii: "]") { close -= 1 }
        if close >= lo, hi > lo, b[lo] == UInt8(ascii: "[") {
            guard close > lo + 1 else { return nil }   // an empty literal
            var i = lo + 1
            while i < close {
                let c = b[i]
                guard isHex(c) || c == UInt8(ascii: ":") || c == UInt8(ascii: ".") else { return nil }
                i += 1
            }
            let after = close + 1
            guard after == hi || (b[after] == UInt8(ascii: ":") && isPort(b, after + 1, hi)) else { return nil }
            return (lo, close + 1)
        }
        var hostEnd = lo
        while hostEnd < hi, b[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
        if hostEnd < hi { guard isPort(b, hostEnd + 1, hi) else { return nil } }
        guard hostEnd > lo else { return nil }
        var i = lo
        while i < hostEnd { guard isRegNameByte(b[i]) else { return nil }; i += 1 }
        return (lo, hostEnd)
    }

    /// Zero to five digits, at most 65535 (no sign: `Int(String)` would take one).
    static func isPort(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
        if hi == lo { return true }
        guard let value = ASCIIText.decimal(b, lo, hi, maxDigits: 5) else { return false }
        return value <= 65_535
    }

    static func isSchemeByte(_ b: UInt8, first: Bool) -> Bool {
        isAlpha(b) || (!first && (isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")))
    }

    /// RFC 3986 §3.2.2 reg-name: unreserved, pct-encoded (checked loosely as `%`), sub-delims.
    static func isRegNameByte(_ b: UInt8) -> Bool {
        isUnreserved(b) || b == UInt8(ascii: "%") || isSubDelim(b)
    }

    /// RFC 3986 §3.3 path characters: pchar and `/`.
    static func isPathByte(_ b: UInt8) -> Bool {
        isUnreserved(b) || b == UInt8(ascii: "%") || isSubDelim(b) || b == UInt8(ascii: ":") || b == UInt8(ascii: "@") || b == UInt8(ascii: "/")
    }

    static func isUnreserved(_ b: UInt8) -> Bool {
        isAlpha(b) || isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
    }

    static func isSubDelim(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): return true
        default: return false
        }
    }
    static func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isHex(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) }
}
