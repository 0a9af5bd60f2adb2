/// Just enough HTTP/1.1 (RFC 9112) to read a browser's redirect to the loopback listener:
/// the request line and the end of the header block. Header values are not needed.
enum HTTPRequestHead: Equatable {
    /// The header block is not complete yet; read more.
    case incomplete
    /// Not a request this listener can read (answer 400).
    case malformed
    case request(method: String, path: String, query: String?)

    /// A request head larger than this is refused: a redirect URI with its query is far smaller,
    /// and the cap bounds the memory one connection can take.
    static let maxBytes = 16 * 1024

    static func parse(_ bytes: [UInt8]) -> HTTPRequestHead {
        guard let end = headerEnd(bytes) else { return .incomplete }
        let head = bytes[..<end]
        let lineEnd = head.firstIndex(where: { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }) ?? head.endIndex
        let requestLine = head[..<lineEnd]
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        // request-line = method SP request-target SP HTTP-version (RFC 9112 §3)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              parts[2].starts(with: Array("HTTP/1.".utf8)),
              parts.allSatisfy({ $0.allSatisfy { $0 > 0x20 && $0 < 0x7F } }) else { return .malformed }
        let method = String(decoding: parts[0], as: UTF8.self)
        var target = String(decoding: parts[1], as: UTF8.self)
        if !target.hasPrefix("/") {
            // absolute-form (RFC 9112 §3.2.2) must be accepted by servers; reduce it to its path.
            guard let schemeEnd = target.firstRange(of: "://") else { return .malformed }
            let afterAuthority = target[schemeEnd.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" })
            target = afterAuthority.map { String(target[$0...]) } ?? "/"
            if target.hasPrefix("?") { target = "/" + target }
        }
        if let question = target.firstIndex(of: "?") {
            let query = target[target.index(after: question)...]
            return .request(method: method, path: String(target[..<question]), query: String(query))
        }
        return .request(method: method, path: target, query: nil)
    }

    /// Index just past the first CRLF CRLF; bare LF LF is accepted too (RFC 9112 §2.2).
    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"),
                   bytes[index + 2] == UInt8(ascii: "\n") { return index + 3 }
            }
            index += 1
        }
        return nil
    }
}

/// Decodes an `application/x-www-form-urlencoded`-style query: the authorization response
/// parameters (RFC 6749 §4.1.2) arrive this way. `+` means space; `%XX` is a byte of UTF-8.
/// A repeated name keeps its first value (RFC 6749 §3.1: parameters must not repeat).
enum QueryDecoder {
    static func decode(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(nameAndValue[0])
            let value = nameAndValue.count > 1 ? percentDecode(nameAndValue[1]) : ""
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }

    /// Invalid escapes are kept literally; invalid UTF-8 becomes U+FFFD.
    static func percentDecode(_ text: Substring) -> String {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                      let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
