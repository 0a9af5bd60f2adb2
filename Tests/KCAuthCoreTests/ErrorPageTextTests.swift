import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// The provider's words in a page meant for a browser (`ErrorPageText`: hostile input, one
/// bounded line) and the loopback port rule (`LoopbackPortRule`).
@Suite struct ErrorPageTextTests {
    func words(_ text: String) -> String? { ErrorPageText.words(in: Array(text.utf8)) }

    @Test func keycloaksErrorPageGivesItsMessage() {
        let page = AuthorizationCheckTests.keycloakPage("Client not found.")
        #expect(ErrorPageText.words(in: page.body) == "Client not found.")
        #expect(words(#"<div id='kc-error-message'><span class="kc-feedback-text">Invalid parameter: <b>redirect_uri</b></span></div>"#)
                == "Invalid parameter: redirect_uri", "an inline element does not end the message")
        #expect(words(#"<p id=kc-error-message>Cookie not found.</p><p>Try again</p>"#) == "Cookie not found.")
    }

    @Test func anOAuthErrorIsItsSummary() {
        #expect(words(#"{"error":"invalid_request","error_description":"Invalid parameter: redirect_uri"}"#)
                == "invalid_request (Invalid parameter: redirect_uri)")
        #expect(words(#"{"message":"nope"}"#) == nil, "JSON that is not an OAuth error says nothing")
    }

    @Test func anyOtherPageGivesItsVisibleTextWithoutMarkupScriptsOrTitle() {
        let page = """
            <!DOCTYPE html><html><head><title>400 Bad Request</title><style>p { color: red }</style></head>
            <body><!-- <p>hidden</p> --><h1>Bad Request</h1>
            <script>document.write("<p>evil</p>")</script><p>The client &quot;cli&quot; &amp; its <i>URI</i> &#x2014; refused&#46;</p></body></html>
            """
        #expect(words(page) == "Bad Request The client \"cli\" & its URI — refused.")
        #expect(words("") == nil)
        #expect(words("<html><body>  \n </body></html>") == nil)
        #expect(words("plain text\r\nerror") == "plain text error")
    }

    @Test func hostileTextIsOneBoundedLineThatATerminalCannotActOn() {
        let escapes = words("<p>\u{1B}[31mred\u{1B}[0m &#27;]0;title&#7; \u{9B}2J \u{202E}txet&#x202e;\n\nnext line</p>")
        #expect(escapes == "[31mred[0m ]0;title 2J txet next line")
        let long = words("<p>" + String(repeating: "ab ", count: 10_000) + "</p>")
        #expect(long.map { $0.count <= ErrorPageText.textLimit + 1 } == true)
        // Only the head of a huge body is read, and nothing in it can stall the scan.
        let huge = Array(("<p>" + String(repeating: "<", count: 200_000)).utf8)
        #expect(ErrorPageText.words(in: huge) == nil)
        #expect(words("<p>unclosed <!-- comment") == "unclosed")
        #expect(words("<p>&#xFFFFFFFF; &#55296; &bogus; &amp</p>") == "&#xFFFFFFFF; &#55296; &bogus; &amp")
        #expect(words(String(repeating: "<div id=\"kc-error-message\">", count: 5_000)) == nil)
    }

    @Test func keycloakIsKnownByItsRealmPath() {
        #expect(LoopbackPortRule.anyPortAccepted(issuer: "https://sso.example.com/realms/demo"))
        #expect(LoopbackPortRule.anyPortAccepted(issuer: "https://sso.example.com/auth/realms/demo"))
        #expect(LoopbackPortRule.anyPortAccepted(issuer: "http://127.0.0.1:8180/realms/demo/"))
        #expect(!LoopbackPortRule.anyPortAccepted(issuer: "https://login.example.com/oauth2/default"))
        #expect(!LoopbackPortRule.anyPortAccepted(issuer: "https://realms.example.com"))
        #expect(!LoopbackPortRule.anyPortAccepted(issuer: "https://sso.example.com/realms/demo/extra"))
        #expect(!LoopbackPortRule.anyPortAccepted(issuer: "realms/demo"))
        #expect(LoopbackPortRule.withoutPort("http://127.0.0.1:41237/callback") == "http://127.0.0.1/callback")
        #expect(LoopbackPortRule.withoutPort("http://[::1]:41237/callback") == "http://[::1]/callback")
        #expect(LoopbackPortRule.withoutPort("http://[::1]/callback") == "http://[::1]/callback")
        #expect(LoopbackPortRule.withoutPort("http://127.0.0.1/callback") == "http://127.0.0.1/callback")
    }
}
