/// The pages of the browser binding (`BrowserBinding`).
extension LandingPages {
    public static let otherBrowser = page(
        status: 400, title: "Not this browser", mark: "!", tone: "bad",
        heading: "This response did not come from the browser kcauth opened",
        body: "kcauth accepts the sign-in response only in the browser it started, so another program cannot slip in its own sign-in. Finish the sign-in in the tab kcauth opened, or run <code>kcauth login --no-browser</code> and open the printed address yourself.")

    public static let startUsedTwice = page(
        status: 409, title: "Sign-in stopped", mark: "✗", tone: "bad",
        heading: "Sign-in stopped",
        paragraphs: [
            "<span class=\"reason\">This sign-in link was already opened once, maybe by another program on this computer.</span>",
            "To keep anyone else from signing you in to their account, kcauth stopped this login and stored nothing. Return to the terminal and run <code>kcauth login</code> again.",
        ])
}
