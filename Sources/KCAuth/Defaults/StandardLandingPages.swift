import KCAuthCore

/// The library's landing pages, for a program that signs in through `KCAuthContext` without the
/// CLI: what happened, in words that name no command (the CLI sets its own, `Adapters.system`).
public struct StandardLandingPages: LandingPageRenderer {
    public init() {}

    public func html(_ page: LandingPage) -> String {
        typealias T = LandingPageTemplate
        let back = "You can close this tab and return to the application."
        switch page {
        case .signedIn(let user, let profile):
            let who = user.map { " as <strong>\(T.escape($0))</strong>" } ?? ""
            return T.html(title: "Signed in", mark: "✓", tone: "ok", heading: "You are signed in\(who)",
                          paragraphs: ["The session for profile <code>\(T.escape(profile))</code> is stored. " + back])
        case .signInFailed(let error):
            return T.html(title: "Sign-in failed", mark: "✗", tone: "bad", heading: "Sign-in failed",
                          paragraphs: ["<span class=\"reason\">\(T.escape(T.sentence(error.message)))</span>", "Nothing was stored."])
        case .notThisSignIn:
            return T.html(title: "Not this sign-in", mark: "!", tone: "bad", heading: "This response does not belong to the current sign-in",
                          paragraphs: ["Finish the sign-in in the tab that was opened for it."])
        case .otherBrowser:
            return T.html(title: "Not this browser", mark: "!", tone: "bad", heading: "This response did not come from the browser that was opened",
                          paragraphs: ["Finish the sign-in in the tab that was opened for it."])
        case .startUsedTwice:
            return T.html(title: "Sign-in stopped", mark: "✗", tone: "bad", heading: "Sign-in stopped",
                          paragraphs: ["This sign-in link was already opened once, so the sign-in stopped and nothing was stored."])
        case .signedOut(let profile):
            return T.html(title: "Signed out", mark: "✓", tone: "ok", heading: "You are signed out",
                          paragraphs: ["The session of profile <code>\(T.escape(profile))</code> is being deleted. " + back])
        case .notThisSignOut:
            return T.html(title: "Not this sign-out", mark: "!", tone: "bad", heading: "This response does not belong to the current sign-out",
                          paragraphs: ["Finish the sign-out in the tab that was opened for it."])
        }
    }
}
