import KCAuthCore

/// Landing pages as short, recognisable HTML for the listener's tests (the real words are the
/// CLI's `LandingPageWords`; a `signedIn` page with a user shows just that text).
struct TestPages: LandingPageRenderer {
    func html(_ page: LandingPage) -> String {
        switch page {
        case .signedIn(let user, _): return user ?? "<p>done</p>"
        case .signInFailed(let error): return "<p>\(error.message)</p>"
        case .notThisSignIn: return "<p>wrong state</p>"
        case .otherBrowser: return "<p>other browser</p>"
        case .startUsedTwice: return "<p>used twice</p>"
        case .signedOut: return "<p>You are signed out</p>"
        case .notThisSignOut: return "<p>not this sign-out</p>"
        }
    }
}
