/// Which hosts are this machine: a numeric 127.0.0.0/8 address or `::1`. A DNS name is never
/// taken for loopback by its spelling (`127.evil.example.com` is anyone's), RFC 8252 §8.3.
public enum LoopbackRule {
    /// `127.a.b.c` with four decimal octets 0–255, or `::1` / `[::1]` (also written out in full).
    public static func isNumericLoopback(_ host: String) -> Bool {
        var h = Substring(host)
        if h.hasPrefix("["), h.hasSuffix("]") { h = h.dropFirst().dropLast() }
        if h.contains(":") { return isIPv6Loopback(h) }
        let octets = h.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { o in !o.isEmpty && o.count <= 3 && o.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && Int(o)! <= 255 }
    }

    /// `::1` in any of its textual forms (RFC 4291 §2.2): fifteen zero groups and a one.
    static func isIPv6Loopback(_ text: Substring) -> Bool {
        let lower = text.lowercased()
        guard lower.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == UInt8(ascii: ":") }) else { return false }
        var halves: [String] = []
        var rest = Substring(lower)
        while let range = rest.firstRange(of: "::") {
            halves.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        halves.append(String(rest))
        func groups(_ s: String) -> [Substring]? {
            if s.isEmpty { return [] }
            let g = s.split(separator: ":", omittingEmptySubsequences: false)
            return g.allSatisfy({ !$0.isEmpty && $0.count <= 4 }) ? g : nil
        }
        var all: [Substring]
        switch halves.count {
        case 1:
            guard let g = groups(halves[0]), g.count == 8 else { return false }
            all = g
        case 2:
            guard let head = groups(halves[0]), let tail = groups(halves[1]), head.count + tail.count < 8 else { return false }
            all = head + Array(repeating: "0", count: 8 - head.count - tail.count) + tail
        default:
            return false
        }
        return all.dropLast().allSatisfy { Int($0, radix: 16) == 0 } && Int(all.last!, radix: 16) == 1
    }
}
