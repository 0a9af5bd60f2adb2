/// Why a browser sign-in may never come back. RFC 8252 §7.3 says a provider must accept any port
/// on a loopback redirect URI, but many providers (and OAuth 2.1's exact matching) compare the
/// redirect URI string exactly: the random port is refused, the browser shows the provider's
/// error page, and nothing ever reaches the listener. kcauth cannot see that happen, so it says so
/// while waiting and again when the wait times out.
public enum ExactRedirectHint {
    /// Runs `body` (the wait for the redirect), giving a timeout without a hint the remedy
    /// `useFixedPort` (the CLI shows a line about it while waiting too); or, when the listener
    /// refused connections, a hint about those: the browser did reach the listener, as another
    /// user, so the redirect URI is not the problem.
    static func explainingTimeout<T>(refused: () -> [RefusedConnection] = { [] }, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as KCAuthError where error.code == .timedOut && error.hint == nil {
            let connections = refused()
            if connections.isEmpty { error.remedy = .useFixedPort } else { error.hint = afterRefusal(connections) }
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
