extension StringProtocol {
    /// Trims spaces, tabs, CR and LF (RFC 9110 §5.5 optional whitespace plus the line ending).
    func trimmingHTTPWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
