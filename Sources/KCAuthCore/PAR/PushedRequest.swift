/// A pushed authorization request the provider took (RFC 9126 §2.2): the browser's URL with its
/// `request_uri`, and when that stops being usable.
public struct PushedRequest: Sendable, Equatable {
    /// The authorization endpoint with `client_id` and `request_uri` only (§4).
    public var browserURL: WireText
    /// When it was pushed, on the sleeper's monotonic clock.
    public var pushedAt: Double
    /// Seconds the `request_uri` lives (Keycloak: 60).
    public var expiresIn: Double

    public init(browserURL: WireText, pushedAt: Double, expiresIn: Double) {
        self.browserURL = browserURL
        self.pushedAt = pushedAt
        self.expiresIn = expiresIn
    }

    /// Whether a browser sent there now still gets there in time: some of the `request_uri`'s
    /// life (up to 10 s, at most half of it) is kept for the redirect and the provider's first page.
    public func isFresh(now: Double) -> Bool {
        now - pushedAt + min(10, expiresIn / 2) < expiresIn
    }
}
