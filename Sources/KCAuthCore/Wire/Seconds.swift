/// A non-negative, finite number of seconds from a provider or a file (`expires_in`,
/// `refresh_expires_in`, a device code's `interval`), checked where it is decoded.
///
/// Providers are not trusted to send sane numbers: a negative, non-finite or non-numeric value
/// is a decoding error (the provider's fault, exit 1), and an absurdly large one is clamped to
/// `maximum` — RFC 6749 §5.1 gives `expires_in` no upper bound, and "longer than kcauth can
/// represent" means the same thing in practice as "very long".
public struct Seconds: Sendable, Hashable, Comparable {
    /// About 100 years: longer than any token lives, and far below where `Double` arithmetic on
    /// epoch times loses whole seconds.
    public static let maximum: Double = 3_155_760_000

    public let value: Double

    public init?(_ value: Double) {
        guard value.isFinite, value >= 0 else { return nil }
        self.value = min(value, Self.maximum)
    }

    /// A JSON number or a numeric string ("300": some providers send that).
    public init?(json: JSONValue) {
        switch json {
        case .number(let n): self.init(n)
        case .string(let s):
            // Double("nan"), Double("inf") and hex floats parse; a lifetime is plain decimal.
            let trimmed = s.trimmingWhitespace()
            guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 101 || $0 == 69 || $0 == 43 || $0 == 45 }),
                  let n = Double(trimmed) else { return nil }
            self.init(n)
        default: return nil
        }
    }

    public static func < (a: Seconds, b: Seconds) -> Bool { a.value < b.value }
}

extension KeyedDecodingContainer {
    /// An optional lifetime in seconds: absent or null → nil; present but not a sane number → a
    /// decoding error naming the field.
    func decodeSeconds(_ key: Key) throws -> Seconds? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let raw = try decode(JSONValue.self, forKey: key)
        guard let seconds = Seconds(json: raw) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                debugDescription: "'\(key.stringValue)' is not a non-negative number of seconds")
        }
        return seconds
    }

    /// A JWT NumericDate (RFC 7519 §2): a number, or a numeric string, that is a representable
    /// `Instant`; anything else is a decoding error naming the claim.
    func decodeNumericDate(_ key: Key) throws -> Instant? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let raw = try decode(JSONValue.self, forKey: key)
        let number: Double?
        switch raw {
        case .number(let n): number = n
        case .string: number = Seconds(json: raw).flatMap { $0.value < Seconds.maximum ? $0.value : nil }
        default: number = nil
        }
        guard let number, let instant = Instant(epochSeconds: number) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                debugDescription: "'\(key.stringValue)' is not a time between 1970 and 9999")
        }
        return instant
    }
}
