/// Where the git and docker helpers may send a bearer token: over https to any host a profile
/// lists, over plain http only to this machine. Written against the Swift standard library
/// alone (no Foundation, no Glibc, no parser of the system's), so the same rule can serve the
/// static front, and so what counts as "this machine" is decided by the text and never by a
/// name lookup: `localhost` or `127.evil.example.com` may resolve anywhere (RFC 8252 §8.3), a
/// numeric 127.0.0.0/8 or ::1 address cannot leave the machine.
public enum CredentialTransport {
    /// `scheme` as git's `protocol` or a server URL names it; `host` without the port, an IPv6
    /// address with or without its brackets.
    public static func allowsToken(scheme: String, host: String) -> Bool {
        switch SettingCheck.asciiLowercased(scheme) {
        case "https": return true
        case "http": return isLoopbackAddress(host)
        default: return false
        }
    }

    /// A numeric loopback address: dotted-quad IPv4 in 127.0.0.0/8 (four decimal parts, no
    /// leading zeros, which some parsers read as octal) or IPv6 ::1 in any spelling.
    ///
    /// Over bytes (the static front calls it on every plain-http issuer and git/docker request,
    /// docs/performance.md §4). Only ASCII can spell an address, so any other byte is false.
    public static func isLoopbackAddress(_ host: String) -> Bool {
        var copy = host
        return copy.withUTF8 { b in
            var i = 0
            while i < b.count { if b[i] >= 0x80 { return false }; i += 1 }
            let n = b.count
            if n > 0, b[0] == UInt8(ascii: "[") {
                guard n >= 2, b[n - 1] == UInt8(ascii: "]") else { return false }
                return isIPv6Loopback(b, 1, n - 1)
            }
            i = 0
            while i < n { if b[i] == UInt8(ascii: ":") { return isIPv6Loopback(b, 0, n) }; i += 1 }
            return isIPv4Loopback(b)
        }
    }

    /// Four parts separated by `.`, each 0–255 in decimal without a leading zero (a lone `0` is
    /// fine) and without a sign; the first is 127.
    private static func isIPv4Loopback(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var part = 0, lo = 0, first = -1
        var i = 0
        while i <= b.count {
            if i == b.count || b[i] == UInt8(ascii: ".") {
                guard part < 4, let value = octet(b, lo, i) else { return false }
                if part == 0 { first = value }
                part += 1
                lo = i + 1
            }
            i += 1
        }
        return part == 4 && first == 127
    }

    private static func octet(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Int? {
        guard hi > lo, b[lo] != UInt8(ascii: "0") || hi - lo == 1, let value = ASCIIText.decimal(b, lo, hi, maxDigits: 3),
              value <= 255 else { return nil }
        return value
    }

    /// ::1, 0:0:0:0:0:0:0:1, 0::1 and the like: eight 16-bit groups ("::" once, for a run of
    /// zero groups), all zero but the last, which is one. `b[lo..<hi]`, ASCII.
    private static func isIPv6Loopback(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
        guard hi - lo <= 39 else { return false }
        // The first "::" splits the text into the groups before and after the gap.
        var gap = -1
        var i = lo + 1
        while i < hi {
            if b[i] == UInt8(ascii: ":"), b[i - 1] == UInt8(ascii: ":") { gap = i - 1; break }
            i += 1
        }
        if gap < 0 {
            guard let front = groups(b, lo, hi), front.count == 8 else { return false }
            return front.last == 1 && front.zeroBeforeLast
        }
        let tailStart = gap + 2
        guard let front = groups(b, lo, gap), let back = groups(b, tailStart, hi),
              front.count + back.count <= 7, tailStart == hi || b[tailStart] != UInt8(ascii: ":") else { return false }
        // With a gap the last group is the tail's; "1::" ends in zero groups.
        guard back.count > 0, back.last == 1 else { return false }
        return (front.count == 0 || (front.zeroBeforeLast && front.last == 0)) && back.zeroBeforeLast
    }

    /// The colon-separated groups of one to four hex digits in `b[lo..<hi]` (none when empty):
    /// how many, the last one's value, and whether all before it are zero; nil if one is not a
    /// group. Digits only: no sign, as `Int(_:radix:)` would take.
    private static func groups(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int)
        -> (count: Int, last: Int, zeroBeforeLast: Bool)? {
        guard hi > lo else { return (0, -1, true) }
        var count = 0, last = -1, zero = true, start = lo
        var i = lo
        while i <= hi {
            if i == hi || b[i] == UInt8(ascii: ":") {
                guard let value = ASCIIText.hex16(b, start, i) else { return nil }
                if count > 0, last != 0 { zero = false }
                last = value
                count += 1
                start = i + 1
            }
            i += 1
        }
        return (count, last, zero)
    }
}
