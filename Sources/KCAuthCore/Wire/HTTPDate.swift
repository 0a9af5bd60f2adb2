#if canImport(Glibc)
import Glibc
#endif

/// HTTP dates (RFC 9110 §5.6.7), for `kcauth doctor`'s clock-skew check against the provider's
/// `Date` header. Only the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`): senders must use
/// it, and every provider kcauth talks to does.
public enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// Seconds since the epoch, or nil for anything that is not an IMF-fixdate.
    public static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), days.contains(String(parts[0].dropLast())),
              parts[1].count == 2, let day = Int32(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])),
              parts[3].count == 4, let year = Int32(parts[3]), parts[5] == "GMT"
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int32(clock[0]), let minute = Int32(clock[1]), let second = Int32(clock[2]),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var t = tm()
        t.tm_year = year - 1900
        t.tm_mon = Int32(month)
        t.tm_mday = day
        t.tm_hour = hour
        t.tm_min = minute
        t.tm_sec = second
        return Double(timegm(&t))
    }
}
