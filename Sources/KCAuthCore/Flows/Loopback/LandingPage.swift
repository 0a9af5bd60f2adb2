/// A page the browser shows at the end of a sign-in or sign-out on the loopback listener: which
/// one, as a fact. The words and the HTML are the presentation's (`LandingPageRenderer`).
public enum LandingPage: Sendable, Equatable {
    /// The sign-in succeeded and the session of `profile` is stored; `user` names who signed in.
    case signedIn(user: String?, profile: String)
    /// The sign-in failed with `error`; nothing was stored.
    case signInFailed(KCAuthError)
    /// A response with another sign-in's `state`: the current one still waits.
    case notThisSignIn
    /// A response from a browser that is not the one the login started (`BrowserBinding`).
    case otherBrowser
    /// The binding start URL was opened twice: the login stopped.
    case startUsedTwice
    /// The provider ended the sign-in in this browser; the session of `profile` is being deleted.
    case signedOut(profile: String)
    /// A response that does not belong to the current sign-out.
    case notThisSignOut

    /// The HTTP status the page is served with.
    public var status: Int {
        switch self {
        case .signedIn, .signedOut: return 200
        case .startUsedTwice: return 409
        case .signInFailed, .notThisSignIn, .otherBrowser, .notThisSignOut: return 400
        }
    }
}
