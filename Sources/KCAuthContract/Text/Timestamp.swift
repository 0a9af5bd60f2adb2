#if canImport(Glibc)
import Glibc
#endif

/// RFC 3339 UTC timestamps in the one form kcauth writes (`YYYY-MM-DDTHH:MM:SSZ`): the writer
/// every output and the runtime cache use, and the strict reader of that form (the cache file).
/// Computed without time-zone files or Foundation, so the static front can use it.
public enum Timestamp {
    /// Seconds since the epoch of a `YYYY-MM-DDTHH:MM:SSZ` text, or nil for any other form or
    /// an out-of-range field.
    public static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count == 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int32? {
            var v: Int32 = 0
            for c in b[from..<(from + count)] {
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int32(c - 0x30)
            }
            return v
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2),
              year >= 1970, month >= 1, month <= 12, day >= 1, day <= 31, hour < 24, minute < 60, second < 60
        else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar (the days-from-civil
        // algorithm), so that no time-zone file is read: RFC 3339 "Z" is UTC. A day past the end
        // of its month rolls over into the next one, as timegm does.
        let y = Int64(month <= 2 ? year - 1 : year), m = Int64(month), d = Int64(day)
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + Int64(hour) * 3_600 + Int64(minute) * 60 + Int64(second))
    }

    /// RFC 3339 UTC with whole seconds (`2026-11-21T14:03:09Z`). Out-of-range input (NaN,
    /// infinities, beyond year 9999) is clamped, so that no caller can make it trap.
    public static func format(_ epochSeconds: Double) -> String {
        let clamped = epochSeconds.isNaN ? 0 : min(max(epochSeconds, 0), 253_402_300_799)
        var t = time_t(clamped.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        // ASCII digits by hand into one byte array: String(Int32), String(repeating:) and
        // interpolation run standard-library code nothing else on a warm token runs, spread over
        // its 1.6 MB of text (≈0.2 MiB of the static front's peak RSS, docs/performance.md §4).
        var out: [UInt8] = []
        out.reserveCapacity(20)
        func pad(_ v: Int32, _ width: Int, _ separator: UInt8) {
            if v < 0 {   // not a date kcauth meets; the form the interpolation gave, zeros before the sign
                let s = String(v)
                out.append(contentsOf: (String(repeating: "0", count: max(0, width - s.count)) + s).utf8)
            } else {
                var digits = 1, divisor: Int32 = 1
                while v / divisor >= 10 { digits += 1; divisor *= 10 }
                for _ in digits..<max(width, digits) { out.append(0x30) }
                while divisor > 0 { out.append(0x30 + UInt8((v / divisor) % 10)); divisor /= 10 }
            }
            if separator != 0 { out.append(separator) }
        }
        pad(parts.tm_year + 1900, 4, UInt8(ascii: "-"))
        pad(parts.tm_mon + 1, 2, UInt8(ascii: "-"))
        pad(parts.tm_mday, 2, UInt8(ascii: "T"))
        pad(parts.tm_hour, 2, UInt8(ascii: ":"))
        pad(parts.tm_min, 2, UInt8(ascii: ":"))
        pad(parts.tm_sec, 2, UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `String(v)`, for `-o json`'s `expires_in`, with the digits written by hand as in `format`.
    public static func decimal(_ v: Int64) -> String {
        guard v >= 0 else { return String(v) }
        var out: [UInt8] = []
        var divisor: Int64 = 1
        while v / divisor >= 10 { divisor *= 10 }
        while divisor > 0 { out.append(0x30 + UInt8((v / divisor) % 10)); divisor /= 10 }
        return String(decoding: out, as: UTF8.self)
    }
}
