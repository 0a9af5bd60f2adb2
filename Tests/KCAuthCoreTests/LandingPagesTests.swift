import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// The landing pages' HTML. How they look and read in a real browser is checked by
/// Tests/Integration/test_landing_pages.py (headless Chromium, screenshots).
@Suite struct LandingPagesTests {
    @Test func successNamesTheUserAndTheProfileEscaped() {
        let page = LandingPages.success(user: "<alice>", profile: "a&b")
        #expect(page.status == 200)
        #expect(page.html.contains("You are signed in as <strong>&lt;alice&gt;</strong>"))
        #expect(page.html.contains("<code>a&amp;b</code>") && page.html.contains("close this tab"))
    }

    @Test func failureStatesTheReasonAsASentenceAndWhatToDoNext() {
        let page = LandingPages.failure(KCAuthError(.accessDenied, "sign-in was denied at the provider: <x>"))
        #expect(page.status == 400)
        #expect(page.html.contains("Sign-in was denied at the provider: &lt;x&gt;.</span>"))
        #expect(page.html.contains("Nothing was stored. Return to the terminal for details, then run <code>kcauth login</code> again."))
    }

    @Test func sentenceKeepsExistingPunctuation() {
        #expect(LandingPages.sentence("done.") == "Done.")
        #expect(LandingPages.sentence("really?") == "Really?")
        #expect(LandingPages.sentence("") == "")
    }

    @Test func pagesAreSelfContained() {
        for page in [LandingPages.success(user: nil, profile: "p"), LandingPages.failure(KCAuthError(.internal, "x")),
                     LandingPages.notThisLogin] {
            #expect(!page.html.contains("<script") && !page.html.contains("http://") && !page.html.contains("https://"))
            #expect(page.html.contains("default-src 'none'"), "a Content-Security-Policy blocks any resource")
            #expect(page.html.contains("prefers-color-scheme: dark"))
        }
    }
}
