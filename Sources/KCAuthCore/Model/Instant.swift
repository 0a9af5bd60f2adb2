/// A point in time: seconds since the Unix epoch, UTC, always finite and between 1970 and the
/// year 9999, so arithmetic and formatting on it can never trap.
///
/// kcauth keeps times as `Instant`s and turns them into RFC 3339 text only at the edges: JSON
/// output, and the stored session document (readable when someone inspects their keyring).
public struct Instant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// 9999-12-31T23:59:59Z: the last instant RFC 3339's four-digit year can write.
    public static let latestEpochSeconds: Double = 253_402_300_799
    public static let distantFuture = Instant(uncheckedEpochSeconds: latestEpochSeconds)

    public let epochSeconds: Double

    /// Nil for a time kcauth cannot represent (negative, non-finite, after 9999).
    public init?(epochSeconds: Double) {
        guard epochSeconds.isFinite, epochSeconds >= 0, epochSeconds <= Self.latestEpochSeconds else { return nil }
        self.epochSeconds = epochSeconds
    }

    /// A reading of a clock, which is trusted; clamped into range all the same.
    public init(clock seconds: Double) {
        self.epochSeconds = seconds.isFinite ? min(max(seconds, 0), Self.latestEpochSeconds) : 0
    }

    private init(uncheckedEpochSeconds: Double) { epochSeconds = uncheckedEpochSeconds }

    /// `self + lifetime`, saturating at `distantFuture` (a "valid for 10^300 s" token is simply
    /// valid for as long as kcauth can say).
    public func adding(_ lifetime: Seconds) -> Instant {
        Instant(clock: min(epochSeconds + lifetime.value, Self.latestEpochSeconds))
    }

    /// Seconds from `other` to `self` (negative when `self` is earlier).
    public func seconds(since other: Instant) -> Double { epochSeconds - other.epochSeconds }

    public static func < (a: Instant, b: Instant) -> Bool { a.epochSeconds < b.epochSeconds }

    /// RFC 3339, UTC, whole seconds.
    public var rfc3339: String { RFC3339.format(epochSeconds) }
    public var description: String { rfc3339 }

    /// Parses RFC 3339 text (as stored); nil when it is not a representable time.
    public init?(rfc3339 text: String) {
        guard let seconds = RFC3339.parse(text) else { return nil }
        self.init(epochSeconds: seconds)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        guard let instant = Instant(rfc3339: try c.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an RFC 3339 time between 1970 and 9999")
        }
        self = instant
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rfc3339)
    }
}
