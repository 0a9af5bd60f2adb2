import Testing
import KCAuthContract
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

/// The file's lines in messages, and the keys kcauth does not read.
@Suite struct ConfigDocumentLineTests {
    static let text = """
    # comment
    colour = blue
    [work]
    issuer = https://sso.example.com/realms/w

    clientid = kcauth
    port = abc
    default_profile = work
    """

    @Test func aBadValueNamesItsLine() throws {
        let doc = try ConfigDocument(parsing: Self.text, path: "/c")
        #expect { try ProfileSettings(doc, profile: "work", path: "/c") } throws: { error in
            (error as? KCAuthError)?.message.hasPrefix("/c:7: profile [work]: port 'abc' is not a number") == true
        }
        let two = try ConfigDocument(parsing: "[w]\nclient_secret_env = A\nclient_key_id =\n\nclient_key = /k.pem\n", path: "/c")
        #expect { try ProfileSettings(two, profile: "w", path: "/c") } throws: {
            ($0 as? KCAuthError)?.message == "/c:5: profile [w]: it names more than one client credential (a secret, a key, an assertion): keep one"
        }
        let saved = try ConfigDocument(parsing: "[w]\nissuer = ftp://x\n", path: "/c")
        #expect { try SettingsResolver(environment: [:], config: saved, configPath: "/c", workingDirectory: nil).resolve(SettingsFlags(profile: "w")) }
            throws: { ($0 as? KCAuthError)?.message.hasPrefix("/c:2: profile [w]: ") == true }
    }

    @Test func unknownKeysAreFoundWithTheirLineAndPlace() throws {
        let doc = try ConfigDocument(parsing: Self.text, path: "/c")
        let unknown = doc.unknownKeys()
        #expect(unknown.map(\.key) == ["colour", "clientid", "default_profile"])
        #expect(unknown.map(\.line) == [2, 6, 8])
        #expect(unknown.map(\.profile) == [nil, "work", "work"])
        #expect(unknown.map(\.belongsElsewhere) == [false, false, true])
        #expect(try ConfigDocument(parsing: "issuer = x\n[a]\n", path: "/c").unknownKeys().first?.belongsElsewhere == true)
        // Every key the catalogue knows, where it may stand, is read.
        let known = "default_profile = a\nsign_in_notification = off\n[a]\n"
            + SettingsCatalogue.profileKeys.map { "\($0) = x" }.joined(separator: "\n")
        #expect(try ConfigDocument(parsing: known, path: "/c").unknownKeys().isEmpty)
    }
}
