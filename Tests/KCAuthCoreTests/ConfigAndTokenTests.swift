import Testing
@testable import KCAuthCore
import KCAuthTestSupport

@Suite struct ConfigDocumentTests {
    @Test func readsProfilesAndKeepsCommentsOnRewrite() throws {
        let text = """
        # my settings
        default_profile = work

        [work]
        issuer = https://sso.example.com/realms/w   ; not a comment: values run to the end
        client_id = kcauth
        # trailing comment

        """
        var doc = try ConfigDocument(parsing: text, path: "/c")
        #expect(doc.profileNames == ["work"])
        #expect(doc.value("default_profile", profile: nil) == "work")
        #expect(doc.value("client_id", profile: "work") == "kcauth")
        doc.set("port", "8400", profile: "work")
        doc.set("client_id", "other", profile: "work")
        doc.set("issuer", "https://x/realms/y", profile: "home")
        #expect(doc.text == """
        # my settings
        default_profile = work

        [work]
        issuer = https://sso.example.com/realms/w   ; not a comment: values run to the end
        client_id = other
        port = 8400
        # trailing comment

        [home]
        issuer = https://x/realms/y

        """)
        #expect(try ConfigDocument(parsing: doc.text, path: "/c") == doc)
    }

    @Test(arguments: [
        ("[work\nissuer = x", "/c:1: a section header must end with ']'"),
        ("[a]\n[a]", "/c:2: profile [a] appears twice"),
        ("[ok]\nissuer x", "/c:2: expected 'key = value'"),
        ("[bad name]", "/c:1: 'bad name' is not a valid profile name"),
    ])
    func malformedFilesNameTheLine(text: String, message: String) {
        #expect { try ConfigDocument(parsing: text, path: "/c") } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .configuration && e?.message.hasPrefix(message) == true
        }
    }

    @Test func badPortIsAConfigurationError() throws {
        let doc = try ConfigDocument(parsing: "[p]\nport = http", path: "/c")
        #expect(throws: KCAuthError.self) { try ProfileSettings(doc, profile: "p", path: "/c") }
    }
}
