import KCAuth
import KCAuthCore

/// The CLI's landing pages: what happened, and the kcauth command that goes on from there.
struct LandingPageWords: LandingPageRenderer {
    func html(_ page: LandingPage) -> String {
        typealias T = LandingPageTemplate
        switch page {
        case .signedIn(let user, let profile):
            let who = user.map { " as <strong>\(T.escape($0))</strong>" } ?? ""
            return T.html(title: "Signed in", mark: "✓", tone: "ok", heading: "You are signed in\(who)", paragraphs: [
                "kcauth stored the session for profile <code>\(T.escape(profile))</code>. You can close this tab and return to the terminal.",
            ])
        case .signInFailed(let error):
            return T.html(title: "Sign-in failed", mark: "✗", tone: "bad", heading: "Sign-in failed", paragraphs: [
                "<span class=\"reason\">\(T.escape(T.sentence(MessageWords.message(error))))</span>",
                "Nothing was stored. Return to the terminal for details, then run <code>kcauth login</code> again.",
            ])
        case .notThisSignIn:
            return T.html(title: "Not this sign-in", mark: "!", tone: "bad",
                          heading: "This response does not belong to the current sign-in", paragraphs: [
                "kcauth is still waiting for the sign-in it started. Finish that one in the tab kcauth opened, or run <code>kcauth login</code> again.",
            ])
        case .otherBrowser:
            return T.html(title: "Not this browser", mark: "!", tone: "bad",
                          heading: "This response did not come from the browser kcauth opened", paragraphs: [
                "kcauth accepts the sign-in response only in the browser it started, so another program cannot slip in its own sign-in. Finish the sign-in in the tab kcauth opened, or run <code>kcauth login --no-browser</code> and open the printed address yourself.",
            ])
        case .startUsedTwice:
            return T.html(title: "Sign-in stopped", mark: "✗", tone: "bad", heading: "Sign-in stopped", paragraphs: [
                "<span class=\"reason\">This sign-in link was already opened once, maybe by another program on this computer.</span>",
                "To keep anyone else from signing you in to their account, kcauth stopped this login and stored nothing. Return to the terminal and run <code>kcauth login</code> again.",
            ])
        case .signedOut(let profile):
            return T.html(title: "Signed out", mark: "✓", tone: "ok", heading: "You are signed out", paragraphs: [
                "The provider ended your sign-in in this browser, and kcauth is deleting the session of profile <code>\(T.escape(profile))</code>. You can close this tab and return to the terminal.",
            ])
        case .notThisSignOut:
            return T.html(title: "Not this sign-out", mark: "!", tone: "bad",
                          heading: "This response does not belong to the current sign-out", paragraphs: [
                "kcauth is still waiting for the sign-out it started. Finish that one in the tab kcauth opened, or run <code>kcauth logout</code> again.",
            ])
        }
    }
}
