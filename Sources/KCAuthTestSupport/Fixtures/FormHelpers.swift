import KCAuthCore

public func queryParameters(of url: String) -> [String: String] {
    guard let q = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
    return FormEncoding.decode(String(q))
}

public func formFields(of request: HTTPRequest) -> [String: String] {
    FormEncoding.decode(String(decoding: request.body ?? [], as: UTF8.self))
}
