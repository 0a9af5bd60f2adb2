/// The query of one request to the callback path, decoded.
public struct CallbackRequest: Sendable, Equatable {
    public var parameters: [String: String]
    public init(parameters: [String: String]) { self.parameters = parameters }
    public subscript(_ name: String) -> String? { parameters[name] }
}
