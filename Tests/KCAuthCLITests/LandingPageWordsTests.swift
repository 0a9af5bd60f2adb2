import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthCore

/// The landing pages' HTML. How they look and read in a real browser is checked by
/// Tests/Integration/test_landing_pages.py (headless Chromium, screenshots).
@Suite struct LandingPageWordsTests {
    let pages = LandingPageWords()

    @Test func successNamesTheUserAndTheProfileEscaped() {
        let page = LandingPage.signedIn(user: "<alice>", profile: "a&b")
        #expect(page.status == 200)
        #expect(pages.html(page).contains("You are signed in as <strong>&lt;alice&gt;</strong>"))
        #expect(pages.html(page).contains("<code>a&amp;b</code>") && pages.html(page).contains("close this tab"))
    }

    @Test func failureStatesTheReasonAsASentenceAndWhatToDoNext() {
        let page = LandingPage.signInFailed(KCAuthError(.accessDenied, "sign-in was denied at the provider: <x>"))
        #expect(page.status == 400)
        #expect(pages.html(page).contains("Sign-in was denied at the provider: &lt;x&gt;.</span>"))
        #expect(pages.html(page).contains("Nothing was stored. Return to the terminal for details, then run <code>kcauth login</code> again."))
    }

    @Test func sentenceKeepsExistingPunctuation() {
        #expect(LandingPageTemplate.sentence("done.") == "Done.")
        #expect(LandingPageTemplate.sentence("really?") == "Really?")
        #expect(LandingPageTemplate.sentence("") == "")
    }

    @Test(arguments: [LandingPage.signedIn(user: nil, profile: "p"), .signInFailed(KCAuthError(.internal, "x")), .notThisSignIn,
                      .otherBrowser, .startUsedTwice, .signedOut(profile: "p"), .notThisSignOut])
    func pagesAreSelfContained(_ page: LandingPage) {
        for html in [pages.html(page), StandardLandingPages().html(page)] {
            #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"))
            #expect(html.contains("default-src 'none'"), "a Content-Security-Policy blocks any resource")
            #expect(html.contains("prefers-color-scheme: dark"))
        }
    }

    @Test func theLibrarysPagesNameNoCommand() {
        for page in [LandingPage.signInFailed(KCAuthError(.internal, "x")), .notThisSignIn, .otherBrowser, .startUsedTwice, .notThisSignOut] {
            #expect(!StandardLandingPages().html(page).contains("kcauth login"))
        }
    }
}
