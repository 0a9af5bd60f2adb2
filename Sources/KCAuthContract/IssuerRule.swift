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
    public static func normalize(_ raw: String) -> Result<String, Refusal> {
        var bytes = Array(raw.utf8)[...]
        while let f = bytes.first, f == 0x20 || f == 0x09 { bytes.removeFirst() }
        while let l = bytes.last, l == 0x20 || l == 0x09 { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        let issuer = Array(bytes)
        guard let colon = issuer.firstIndex(of: UInt8(ascii: ":")), colon > 0, isAlpha(issuer[0]),
              issuer[1..<colon].allSatisfy({ isSchemeByte($0, first: false) }),
              issuer.count >= colon + 3, issuer[colon + 1] == UInt8(ascii: "/"), issuer[colon + 2] == UInt8(ascii: "/")
        else { return .failure(.notAURL) }
        let scheme = SettingCheck.asciiLowercased(String(decoding: issuer[0..<colon], as: UTF8.self))
        let rest = issuer[(colon + 3)...]
        if rest.contains(UInt8(ascii: "?")) || rest.contains(UInt8(ascii: "#")) {
            return authority(rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }) == nil
                ? .failure(.notAURL) : .failure(.queryOrFragment)
        }
        let authorityEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        guard let host = authority(rest[rest.startIndex..<authorityEnd]),
              rest[authorityEnd...].allSatisfy(isPathByte) else { return .failure(.notAURL) }
        switch scheme {
        case "https": break
        case "http": guard CredentialTransport.isLoopbackAddress(host) || SettingCheck.asciiLowercased(host) == "localhost" else { return .failure(.plainHTTP) }
        default: return .failure(.unsupportedScheme(scheme))
        }
        return .success(String(decoding: issuer, as: UTF8.self))
    }

    /// The host of `host[:port]` (no user information), or nil.
    static func authority(_ bytes: ArraySlice<UInt8>) -> String? {
        var hostPart = bytes
        if let close = bytes.lastIndex(of: UInt8(ascii: "]")), bytes.first == UInt8(ascii: "[") {
            let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return nil }
            hostPart = bytes[bytes.startIndex...close]
            let after = bytes[(close + 1)...]
            guard after.isEmpty || (after.first == UInt8(ascii: ":") && isPort(after.dropFirst())) else { return nil }
        } else {
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                guard isPort(bytes[(colon + 1)...]) else { return nil }
                hostPart = bytes[bytes.startIndex..<colon]
            }
            guard !hostPart.isEmpty, hostPart.allSatisfy(isRegNameByte) else { return nil }
        }
        return String(decoding: hostPart, as: UTF8.self)
    }

    static func isPort(_ digits: ArraySlice<UInt8>) -> Bool {
        digits.count <= 5 && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (digits.isEmpty || Int(String(decoding: digits, as: UTF8.self))! <= 65_535)
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

    static func isSubDelim(_ b: UInt8) -> Bool { "!$&'()*+,;=".utf8.contains(b) }
    static func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isHex(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) }
}
