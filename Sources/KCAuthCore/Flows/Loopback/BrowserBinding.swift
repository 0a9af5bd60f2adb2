import KCAuthCrypto

/// Ties one login to the browser kcauth started, against login fixation: the `state`
/// alone does not help when another local user can read it.
///
/// Without it, anyone who learns the authorization request (its `state`) can sign in at the
/// provider as *themselves* and deliver their code to the listener first: the victim would be
/// signed in as the attacker (RFC 6819 §4.4.1.8, RFC 8252 §8.1). The browser is therefore
/// started at a one-shot local start URL, whose answer redirects to the provider and sets this
/// cookie; from then on only callbacks that carry the cookie are shown to the judge, and a second
/// request for the start URL means someone else got there too: the login ends.
public struct BrowserBinding: Sendable, Equatable {
    /// Random per login: two logins at once (different ports, same host for cookies) must not
    /// overwrite each other's cookie, since cookies do not tell ports apart (RFC 6265 §8.5).
    public var cookieName: String
    public var cookieValue: Secret
    /// Seconds the browser keeps the cookie (`Max-Age`): a little more than the login may take.
    public var lifetime: Int
    /// The error a second request of the start URL ends the login with (the browser gets
    /// `LandingPage.startUsedTwice`; a callback without the cookie `LandingPage.otherBrowser`).
    public var reusedStartError: KCAuthError

    public init(cookieName: String, cookieValue: Secret, lifetime: Int, reusedStartError: KCAuthError) {
        self.cookieName = cookieName
        self.cookieValue = cookieValue
        self.lifetime = lifetime
        self.reusedStartError = reusedStartError
    }

    /// A fresh binding for a login that waits up to `timeout` seconds.
    public static func forLogin(timeout: Double, random: any RandomSource) throws -> BrowserBinding {
        let seconds = timeout.isFinite ? min(max(timeout, 0), 86_400) : 86_400
        return BrowserBinding(
            cookieName: "kcauth-" + Base64URL.encode(try random.bytes(6)),
            // 128 bits, like `state` (RFC 6749 §10.10: not guessable).
            cookieValue: Secret(.cookie, Base64URL.encode(try random.bytes(16))),
            lifetime: Int(seconds) + 60,
            reusedStartError: KCAuthError(
                .cancelled, "the sign-in link kcauth gave the browser was opened twice, so another program may be racing your browser; kcauth stopped this login and stored nothing",
                remedy: .signInAgainThenCheckPrograms))
    }
}
