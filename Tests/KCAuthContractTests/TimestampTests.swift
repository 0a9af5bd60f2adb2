#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import Testing

/// The one RFC 3339 writer and the cache's strict reader agree with timegm/gmtime_r.
@Suite struct TimestampTests {
    @Test(arguments: ["1970-01-01T00:00:00Z", "2000-02-29T12:34:56Z", "2026-11-24T11:06:31Z", "2027-01-15T09:00:00Z",
                      "2100-03-01T00:00:00Z", "2026-02-31T00:00:00Z", "2038-01-19T03:14:08Z"])
    func parsesAsTimegmDoes(_ text: String) throws {
        let parsed = try #require(Timestamp.parse(text))
        var parts = tm()
        let b = Array(text.utf8)
        func n(_ from: Int, _ count: Int) -> Int32 { Int32(String(decoding: b[from..<(from + count)], as: UTF8.self))! }
        parts.tm_year = n(0, 4) - 1900; parts.tm_mon = n(5, 2) - 1; parts.tm_mday = n(8, 2)
        parts.tm_hour = n(11, 2); parts.tm_min = n(14, 2); parts.tm_sec = n(17, 2)
        #expect(parsed == Double(timegm(&parts)))
    }

    @Test func formatsWhatItParses() {
        #expect(Timestamp.format(Timestamp.parse("2026-11-24T11:06:31Z")!) == "2026-11-24T11:06:31Z")
        #expect(Timestamp.format(Timestamp.parse("2026-02-31T00:00:00Z")!) == "2026-03-03T00:00:00Z")
    }

    /// The digits are written by hand (docs/performance.md §4: peak RSS): the same text as
    /// strftime's, zero-padded fields.
    @Test(arguments: [0.0, 59.9, 951_827_696, 1_800_000_000, 4_102_444_800, 253_402_300_799])
    func formatsAsStrftimeDoes(_ epoch: Double) {
        var t = time_t(epoch.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        let expected = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(Timestamp.format(epoch) == expected)
    }

    @Test func decimalsAreWrittenAsStringDoes() {
        for v: Int64 in [0, 7, 10, 3599, 1_000_000, Int64.max, -5] { #expect(Timestamp.decimal(v) == String(v)) }
    }

    @Test func hostileNumbersAreClampedNotTrapped() {
        #expect(Timestamp.format(.nan) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.format(-.infinity) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.format(1e300) == "9999-12-31T23:59:59Z")
    }
}
