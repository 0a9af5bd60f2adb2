/// Decides what one request to the loopback callback means (RFC 6749 §4.1.2, RFC 9207, RFC 8252 §8.9).
public enum CallbackOutcome: Sendable, Equatable {
    /// Not a response to this login (wrong or missing `state`): answer, and keep waiting.
    case notOurs
    /// The provider's answer to this login, with an authorization code.
    case code(Secret)
    /// The provider's answer to this login, and it is a failure.
    case failed(KCAuthError)
}
