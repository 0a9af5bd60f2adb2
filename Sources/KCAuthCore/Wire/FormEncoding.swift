/// `application/x-www-form-urlencoded` bodies (RFC 6749 Appendix B) and URL query strings.
public enum FormEncoding {
    /// Unreserved characters of RFC 3986 §2.3 pass through; everything else is percent-encoded
    /// (space as `%20`, which every form parser accepts and keeps query strings unambiguous).
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%"
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return out
    }

    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Decodes a query string, e.g. the authorization response (RFC 6749 §4.1.2); `+` means space
    /// (HTML forms), `%XX` bytes are UTF-8 (invalid UTF-8 becomes U+FFFD). A repeated name keeps
    /// its first value (§3.1: parameters must not repeat); malformed escapes are kept literally.
    public static func decode(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }

    public static func unescape(_ s: String) -> String {
        var bytes: [UInt8] = []
        let input = Array(s.utf8)
        var i = 0
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        while i < input.count {
            let c = input[i]
            if c == UInt8(ascii: "+") {
                bytes.append(32)
            } else if c == UInt8(ascii: "%"), i + 2 < input.count, let h = hexValue(input[i + 1]), let l = hexValue(input[i + 2]) {
                bytes.append(h << 4 | l)
                i += 2
            } else {
                bytes.append(c)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
