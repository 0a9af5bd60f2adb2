/// Why a browser sign-in may never come back. RFC 8252 §7.3 says a provider must accept any port
/// on a loopback redirect URI, but many providers (and OAuth 2.1's exact matching) compare the
/// redirect URI string exactly: the random port is refused, the browser shows the provider's
/// error page, and nothing ever reaches the listener. Where the check before the browser
/// (`AuthorizationCheck`) could not rule that out — the port is random, the provider is not known
/// to take any loopback port (`LoopbackPortRule`), and no push accepted the redirect URI — kcauth
/// says so while waiting and again when the wait times out.
public enum ExactRedirectHint {
    /// Runs `body` (the wait for the redirect), giving a timeout without a hint the remedy
    /// `useFixedPort` where `fixedPortMayHelp` (the CLI shows a line about it while waiting
    /// too); or, when the listener refused connections, a hint about those: the browser did
    /// reach the listener, as another user, so the redirect URI is not the problem.
    static func explainingTimeout<T>(fixedPortMayHelp: Bool = true, refused: () -> [RefusedConnection] = { [] },
                                     _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as KCAuthError where error.code == .timedOut && error.hint == nil {
            let connections = refused()
            if !connections.isEmpty {
                error.hint = afterRefusal(connections)
            } else if fixedPortMayHelp {
                error.remedy = .useFixedPort
            }
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
