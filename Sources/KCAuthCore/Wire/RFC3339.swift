#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// RFC 3339 timestamps in UTC (`2026-11-21T14:03:09Z`), the form kcauth stores and prints.
///
/// Written against `timegm`/`gmtime_r` rather than Foundation's date formatters: those pull in
/// ICU data and cost start-up time on the `token` hot path.
public enum RFC3339 {
    public static func format(_ epochSeconds: Double) -> String { Timestamp.format(epochSeconds) }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; nil for anything else.
    public static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func num(_ from: Int, _ len: Int) -> Int32? {
            var v: Int32 = 0
            for i in from..<(from + len) {
                guard i < b.count, b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int32(b[i] - 48)
            }
            return v
        }
        guard let year = num(0, 4), b[4] == 45, let month = num(5, 2), b[7] == 45, let day = num(8, 2),
              b[10] == 84 || b[10] == 116, let hour = num(11, 2), b[13] == 58, let minute = num(14, 2),
              b[16] == 58, let second = num(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if b[i] == 46 {
            var scale = 0.1
            i += 1
            while i < b.count, b[i] >= 48, b[i] <= 57 { fraction += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 90 || b[i] == 122 {
            guard i + 1 == b.count else { return nil }
        } else if b[i] == 43 || b[i] == 45, i + 6 == b.count, let oh = num(i + 1, 2), b[i + 3] == 58, let om = num(i + 4, 2) {
            offset = Int(oh) * 3600 + Int(om) * 60
            if b[i] == 43 { offset = -offset }
        } else {
            return nil
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Double(timegm(&parts) + offset) + fraction
    }
}
