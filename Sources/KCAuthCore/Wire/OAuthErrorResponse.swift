import FoundationEssentials

/// An OAuth error body (RFC 6749 §5.2).
public struct OAuthErrorResponse: Sendable, Equatable, Decodable {
    public var error: String
    public var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }

    public init(error: String, errorDescription: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
    }

    /// `invalid_grant (Code not valid)`: the error code plus the provider's words, for messages.
    public var summary: String {
        guard let d = errorDescription, !d.isEmpty else { return error }
        return "\(error) (\(Sanitize.oneLine(d, limit: 200)))"
    }
}
