import KCAuthCrypto

/// The pages the browser shows after the post-logout redirect.
public enum LogoutPages {
    public static func signedOut(profile: String) -> LandingPage {
        LandingPages.page(status: 200, title: "Signed out", mark: "✓", tone: "ok", heading: "You are signed out",
                          body: "The provider ended your sign-in in this browser, and kcauth is deleting the session of profile <code>\(LandingPages.escape(profile))</code>. You can close this tab and return to the terminal.")
    }

    public static let notThisLogout = LandingPages.page(
        status: 400, title: "Not this sign-out", mark: "!", tone: "bad",
        heading: "This response does not belong to the current sign-out",
        body: "kcauth is still waiting for the sign-out it started. Finish that one in the tab kcauth opened, or run <code>kcauth logout</code> again.")
}
