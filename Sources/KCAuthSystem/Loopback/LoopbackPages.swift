import Glibc
import KCAuthCore

/// The bytes of the listener's responses.
enum LoopbackPages {
    static func small(_ title: String) -> String {
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>\(title)</title></head>"
            + "<body><p>\(title).</p></body></html>"
    }

    static func response(status: Int, html: String, extraHeaders: [String] = []) -> [UInt8] {
        let body = Array(html.utf8)
        var head = "HTTP/1.1 \(status) \(reason(status))\r\n"
        head += "Content-Type: text/html; charset=utf-8\r\n"
        head += "Content-Length: \(body.count)\r\n"
        // The page follows a URL that carried the authorization code: never cache it, never
        // leak that URL as a Referer from links on the page (RFC 6749 §10.5, RFC 8252 §8.1).
        head += "Cache-Control: no-store\r\n"
        head += "Referrer-Policy: no-referrer\r\n"
        head += "X-Content-Type-Options: nosniff\r\n"
        head += "Connection: close\r\n"
        for header in extraHeaders { head += header + "\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        default: return status < 400 ? "OK" : "Error"
        }
    }
}
