/// Why a browser sign-in may never come back. RFC 8252 §7.3 says a provider must accept any port
/// on a loopback redirect URI, but many providers (and OAuth 2.1's exact matching) compare the
/// redirect URI string exactly: the random port is refused, the browser shows the provider's
/// error page, and nothing ever reaches the listener. kcauth cannot see that happen, so it says so
/// while waiting and again when the wait times out.
public enum ExactRedirectHint {
    /// A line shown under the "waiting" message.
    public static let whileWaiting = "If the browser shows an error from the provider instead, the provider may require "
        + "a fixed --port registered as an exact redirect URI."
    /// The hint of the timeout error.
    public static let afterTimeout = "if the browser showed an error from the provider, it may require a fixed --port "
        + "registered as an exact redirect URI (e.g. --port 8400 with http://127.0.0.1:8400/callback)"

    /// Runs `body` (the wait for the redirect), giving a timeout without a hint this one; or,
    /// when the listener refused connections, a hint about those: the browser did reach the
    /// listener, as another user, so the redirect URI is not the problem.
    static func explainingTimeout<T>(refused: () -> [RefusedConnection] = { [] }, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as KCAuthError where error.code == .timedOut && error.hint == nil {
            let connections = refused()
            error.hint = connections.isEmpty ? afterTimeout : afterRefusal(connections)
            throw error
        }
    }

    /// The timeout's hint after the listener refused `connections`.
    static func afterRefusal(_ connections: [RefusedConnection]) -> String {
        let owners = connections.map { $0.uid.map { "uid \($0)" } ?? "an owner that could not be established" }
        var unique: [String] = []
        for owner in owners where !unique.contains(owner) { unique.append(owner) }
        return "the listener refused connections from \(unique.joined(separator: ", ")): only your own user and root "
            + "may answer a sign-in; open the URL in a browser running as your user"
    }
}
