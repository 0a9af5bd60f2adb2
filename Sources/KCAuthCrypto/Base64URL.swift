/// Base64 with the URL- and filename-safe alphabet (RFC 4648 §5), as JOSE uses it
/// (RFC 7515 §2: "with all trailing '=' characters omitted").
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            let chars = min(4, (bytes.count - index) + 1)   // 1 byte -> 2 chars, 2 -> 3, 3 -> 4
            for k in 0..<chars {
                out.append(alphabet[Int((group >> UInt32(18 - 6 * k)) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url text, or returns nil.
    ///
    /// Padding is optional, but if present it must be correct and at the very end. Any
    /// character outside the base64url alphabet (including `+`, `/`, whitespace, and `=`
    /// anywhere but the end) makes the whole input invalid. Non-canonical encodings, whose
    /// unused trailing bits are not zero, are rejected too (RFC 4648 §3.5), so that every
    /// byte string has exactly one accepted spelling.
    public static func decode(_ text: String) -> [UInt8]? {
        var chars = Array(text.utf8)
        var padding = 0
        while padding < 2, chars.last == UInt8(ascii: "=") {
            chars.removeLast()
            padding += 1
        }
        if padding > 0, (chars.count + padding) % 4 != 0 { return nil }
        if chars.count % 4 == 1 { return nil }   // 6 bits cannot end a byte string

        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for char in chars {
            guard let value = sextet(char) else { return nil }
            accumulator = (accumulator << 6 | value) & 0x3FFF   // never needs more than 14 bits
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        if accumulator & ((1 << UInt32(bits)) - 1) != 0 { return nil }   // non-canonical tail
        return out
    }

    private static func sextet(_ char: UInt8) -> UInt32? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(char - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(char - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(char - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
