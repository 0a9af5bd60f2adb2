/// `Retry-After` (RFC 9110 §10.2.3) on a 429 (RFC 6585 §4) or 503 answer: how long the provider
/// asks a client to wait. Hostile input: only plain delay-seconds or an IMF-fixdate (counted from
/// the answer's own `Date`, so this machine's clock does not matter) within a day are taken.
public enum RetryAfter {
    /// The longest wait taken from a provider; more is nonsense for a sign-in.
    public static let longest: Double = 86_400

    /// Seconds to wait, or nil when the answer asks for nothing usable.
    public static func seconds(in response: HTTPResponse) -> Double? {
        guard response.status == 429 || response.status == 503,
              let raw = response.header("retry-after")?.trimmingWhitespace(), !raw.isEmpty else { return nil }
        if raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // Eleven digits are already more than `longest`; more would only risk overflow.
            guard raw.utf8.count <= 11, let value = Double(raw) else { return nil }
            return value <= longest ? value : nil
        }
        guard let at = HTTPDate.parse(raw), let date = response.header("date").flatMap(HTTPDate.parse) else { return nil }
        let wait = max(0, at - date)
        return wait <= longest ? wait : nil
    }
}
