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
