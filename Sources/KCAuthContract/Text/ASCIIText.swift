#if canImport(Glibc)
import Glibc
#endif

/// Byte-level text helpers for the rules the static front runs on every warm call. Each distinct
/// standard-library function the front calls is code in the standard library's one 1.6 MB text
/// section (`Swift.o`), which no order file can pack: a first call faults in up to a 64 KiB window
/// of it (docs/performance.md §4). So the hot rules parse and print numbers, compare prefixes and
/// split words over bytes here, with index loops, instead of `Int(String)`, `String(x, radix:)`,
/// integer interpolation, `split`, `hasPrefix` or `zip`.
public enum ASCIIText {
    /// The value of `bytes[lo..<hi]` when it is one to `maxDigits` ASCII decimal digits (no sign,
    /// no spaces; leading zeros allowed), else nil.
    @inline(__always)
    public static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, maxDigits: Int) -> Int? {
        guard hi > lo, hi - lo <= maxDigits else { return nil }
        var v = 0
        var i = lo
        while i < hi {
            let c = bytes[i]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            v = v * 10 + Int(c - 0x30)
            i += 1
        }
        return v
    }

    /// `decimal` over a string's UTF-8.
    public static func decimal(_ s: String, maxDigits: Int) -> Int? {
        var copy = s
        return copy.withUTF8 { decimal($0, 0, $0.count, maxDigits: maxDigits) }
    }

    /// The value of one to four hex digits in `bytes[lo..<hi]`, else nil.
    @inline(__always)
    static func hex16(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Int? {
        guard hi > lo, hi - lo <= 4 else { return nil }
        var v = 0
        var i = lo
        while i < hi {
            let c = bytes[i]
            let d: Int
            if c >= 0x30 && c <= 0x39 { d = Int(c - 0x30) } else if c >= 0x41 && c <= 0x46 { d = Int(c - 0x37) }
            else if c >= 0x61 && c <= 0x66 { d = Int(c - 0x57) } else { return nil }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// Appends the decimal digits of `v` (no sign, no padding).
    public static func appendDecimal(_ v: UInt64, to out: inout [UInt8]) {
        var divisor: UInt64 = 1
        while v / divisor >= 10 { divisor *= 10 }
        while divisor > 0 { out.append(0x30 + UInt8((v / divisor) % 10)); divisor /= 10 }
    }

    /// `String(v)` for an unsigned value, digits by hand.
    public static func decimalString(_ v: UInt64) -> String {
        var out: [UInt8] = []
        appendDecimal(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `v` as 16 lower-case hex digits (zero-padded).
    public static func appendHex16(_ v: UInt64, to out: inout [UInt8]) {
        var shift = 60
        while shift >= 0 {
            let d = UInt8((v >> UInt64(shift)) & 0xF)
            out.append(d < 10 ? 0x30 + d : 0x57 + d)
            shift -= 4
        }
    }

    /// Whether the string's UTF-8 starts with `prefix`'s bytes.
    public static func hasPrefix(_ s: String, _ prefix: StaticString) -> Bool {
        var copy = s
        return copy.withUTF8 { b in
            let n = prefix.utf8CodeUnitCount
            guard b.count >= n else { return false }
            let p = prefix.utf8Start
            var i = 0
            while i < n { if b[i] != p[i] { return false }; i += 1 }
            return true
        }
    }

    /// `s.hasPrefix("/")` (an absolute path) by bytes: the first byte is `/` and the next one, if
    /// any, is ASCII (nothing ASCII joins `/` into one character); a non-ASCII byte after it
    /// (a combining mark could make another character) asks String.
    public static func isAbsolute(_ s: String) -> Bool {
        var it = s.utf8.makeIterator()
        guard it.next() == 0x2F else { return false }
        guard let second = it.next(), second >= 0x80 else { return true }
        return s.hasPrefix("/")
    }

    /// Whether `bytes[lo..<hi]` spells `s` exactly.
    public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, _ s: String) -> Bool {
        var copy = s
        return copy.withUTF8 { b in
            guard b.count == hi - lo else { return false }
            var i = 0
            while i < b.count { if b[i] != bytes[lo + i] { return false }; i += 1 }
            return true
        }
    }

    /// Whether `bytes[lo..<hi]`, ASCII letters lowered, spells `lower` (itself lower case).
    public static func equalsIgnoringASCIICase(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, _ lower: StaticString) -> Bool {
        let n = lower.utf8CodeUnitCount
        guard hi - lo == n else { return false }
        let p = lower.utf8Start
        var i = 0
        while i < n {
            var c = bytes[lo + i]
            if c >= 0x41 && c <= 0x5A { c += 32 }
            if c != p[i] { return false }
            i += 1
        }
        return true
    }

    /// A C string as a String (invalid UTF-8 repaired, as `String(cString:)` does), through the
    /// one decoding entry point the front uses everywhere.
    public static func string(cString p: UnsafePointer<CChar>) -> String {
        let count = strlen(p)
        return p.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// The index of the first `string` in `list` equal to `s`, by an index loop.
    public static func index(of s: String, in list: [String]) -> Int? {
        var i = 0
        while i < list.count { if list[i] == s { return i }; i += 1 }
        return nil
    }
}
