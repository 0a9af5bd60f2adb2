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
    public static func isLoopbackAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count >= 2 else { return false }
            return isIPv6Loopback(host.dropFirst().dropLast())
        }
        if host.contains(":") { return isIPv6Loopback(Substring(host)) }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy(isOctet) else { return false }
        return parts[0] == "127"
    }

    private static func isOctet(_ part: Substring) -> Bool {
        guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              part == "0" || !part.hasPrefix("0"), let value = Int(part) else { return false }
        return value <= 255
    }

    /// ::1, 0:0:0:0:0:0:0:1, 0::1 and the like: eight 16-bit groups ("::" once, for a run of
    /// zero groups), all zero but the last, which is one.
    private static func isIPv6Loopback(_ text: Substring) -> Bool {
        guard text.utf8.count <= 39 else { return false }
        var head = text, tail: Substring?
        var previous: Character?
        for index in text.indices {
            if text[index] == ":", previous == ":" {
                head = text[..<text.index(before: index)]
                tail = text[text.index(after: index)...]
                break
            }
            previous = text[index]
        }
        guard let front = groups(head), let back = groups(tail ?? "") else { return false }
        if tail == nil {
            guard front.count == 8 else { return false }
        } else {
            guard front.count + back.count <= 7, !(tail ?? "").hasPrefix(":") else { return false }
        }
        let all = front + back
        // With a gap the last group is the tail's; "1::" ends in zero groups.
        guard let last = (tail == nil ? front : back).last, last == 1 else { return false }
        return all.dropLast().allSatisfy { $0 == 0 }
    }

    /// Colon-separated groups of one to four hex digits; nil if any is not.
    private static func groups(_ text: Substring) -> [Int]? {
        guard !text.isEmpty else { return [] }
        var values: [Int] = []
        for part in text.split(separator: ":", omittingEmptySubsequences: false) {
            // Digits only: `Int(_:radix:)` would also take a sign.
            guard !part.isEmpty, part.count <= 4, part.utf8.allSatisfy(isHexDigit), let value = Int(part, radix: 16) else { return nil }
            values.append(value)
        }
        return values
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
