/// The escapes of a JSON string (RFC 8259 §7), for the contract's two JSON readers (the cache
/// record's and ``ContractJSON``'s): `\" \\ \/ \b \f \n \r \t` and `\uXXXX`, surrogate pairs
/// joined, a lone surrogate refused. Byte loops only: the front reads cache records with it.
enum JSONEscape {
    /// Decodes the escape whose letter is at `b[i]` (just past the backslash) and appends its
    /// UTF-8 to `out`, moving `i` past it; false for anything that is not an escape.
    static func decode(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, into out: inout [UInt8]) -> Bool {
        guard i < b.count else { return false }
        let e = b[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            guard var v = hex4(b, &i) else { return false }
            if v >= 0xD800 && v <= 0xDBFF {
                guard i + 2 <= b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else { return false }
                i += 2
                guard let low = hex4(b, &i), low >= 0xDC00 && low <= 0xDFFF else { return false }
                v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
            } else if v >= 0xDC00 && v <= 0xDFFF {
                return false
            }
            appendScalar(v, &out)
        default:
            return false
        }
        return true
    }

    static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt32? {
        guard i + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            if c >= 0x30 && c <= 0x39 { d = UInt32(c - 0x30) } else if c >= 0x41 && c <= 0x46 { d = UInt32(c - 0x37) }
            else if c >= 0x61 && c <= 0x66 { d = UInt32(c - 0x57) } else { return nil }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// A scalar (never a surrogate: `decode` refuses those) as UTF-8.
    static func appendScalar(_ v: UInt32, _ out: inout [UInt8]) {
        if v < 0x80 { out.append(UInt8(v)) }
        else if v < 0x800 { out += [UInt8(0xC0 | v >> 6), UInt8(0x80 | v & 0x3F)] }
        else if v < 0x10000 { out += [UInt8(0xE0 | v >> 12), UInt8(0x80 | v >> 6 & 0x3F), UInt8(0x80 | v & 0x3F)] }
        else { out += [UInt8(0xF0 | v >> 18), UInt8(0x80 | v >> 12 & 0x3F), UInt8(0x80 | v >> 6 & 0x3F), UInt8(0x80 | v & 0x3F)] }
    }
}
