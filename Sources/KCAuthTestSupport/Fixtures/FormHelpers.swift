import KCAuthCore

public func queryParameters(of url: String) -> [String: String] {
    guard let q = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
    return FormEncoding.decode(String(q))
}

public func formFields(of request: HTTPRequest) -> [String: String] {
    FormEncoding.decode(String(decoding: request.revealBody() ?? [], as: UTF8.self))
}

extension HTTPRequest {
    /// The URL as sent (tests may look at the wire).
    public var sentURL: String { url.reveal() }
    /// The body as sent.
    public var body: [UInt8]? { revealBody() }
    /// A header's value as sent, by name (case-insensitive).
    public func sentHeader(_ name: String) -> String? { headers.last { $0.name.lowercased() == name.lowercased() }?.value.reveal() }
}
