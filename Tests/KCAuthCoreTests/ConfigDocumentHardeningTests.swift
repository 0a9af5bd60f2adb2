import Testing
@testable import KCAuthCore

/// The configuration file's text against what people and attackers put in it:
/// Windows line endings and a BOM are read and kept; control characters can neither
/// be read from the file nor be written into it, whoever calls `set`.
@Suite struct ConfigDocumentHardeningTests {
    func configurationError(_ message: String) -> (any Error) -> Bool {
        { error in
            let e = error as? KCAuthError
            return e?.code == .configuration && e?.message.contains(message) == true
        }
    }

    @Test func crlfAndAByteOrderMarkAreReadAndKeptOnRewrite() throws {
        let text = "\u{FEFF}# from Windows\r\n[work]\r\nissuer = https://sso.example.com\r\nclient_id = kcauth\r\n"
        var doc = try ConfigDocument(parsing: text, path: "/c")
        #expect(doc.profileNames == ["work"])
        #expect(doc.value("issuer", profile: "work") == "https://sso.example.com")
        #expect(doc.value("client_id", profile: "work") == "kcauth")
        #expect(try doc.serialized(path: "/c") == text, "unchanged: byte for byte")

        doc.set("scope", "openid", profile: "work")
        #expect(try doc.serialized(path: "/c")
            == "\u{FEFF}# from Windows\r\n[work]\r\nissuer = https://sso.example.com\r\nclient_id = kcauth\r\nscope = openid\r\n")
    }

    @Test func tabsAroundTheEqualsSignAreWhitespace() throws {
        let doc = try ConfigDocument(parsing: "[p]\nclient_id\t=\tkcauth\t\n", path: "/c")
        #expect(doc.value("client_id", profile: "p") == "kcauth")
    }

    @Test(arguments: [
        ("[p]\nclient_id = kc\u{1B}[2Jauth", "/c:2: the value of 'client_id' contains the control character U+001B"),
        ("issuer = a\u{0}b", "/c:1: the value of 'issuer' contains the control character U+0000"),
        ("[p]\nscope = openid\u{2028}[evil]", "/c:2: the value of 'scope' contains the control character U+2028"),
        ("[p]\nscope = a\u{85}b", "/c:2: the value of 'scope' contains the control character U+0085"),
        ("[p]\nscope = open\rid", "/c:2: the value of 'scope' contains the control character U+000D"),
    ])
    func controlCharactersInAValueAreRefusedWithTheLine(text: String, message: String) {
        #expect(performing: { try ConfigDocument(parsing: text, path: "/c") }, throws: configurationError(message))
    }

    /// Found by the `config` fuzz target: a comment with a CR inside parsed, but was refused on
    /// write; a file of blank CRLF lines read back as a different (LF) document; a value that
    /// begins with a combining mark gained a space on rewrite (" " + U+059E is one Character).
    @Test(arguments: ["\u{FEFF}# edited on Windd = w\r/////e///\n", "# a\r\r\n[p]\r\n", "\r# x\n", "\r\n\r", "\u{FEFF}\r\n",
                      "t_id\t=\t\u{59E}", "k =\u{301}v", "k = v \u{301}"])
    func everyFileThatParsesIsWrittenBackTheSame(text: String) throws {
        let doc = try ConfigDocument(parsing: text, path: "/c")
        #expect(try ConfigDocument(parsing: try doc.serialized(path: "/c"), path: "/c") == doc)
    }

    @Test func commentsMayHoldAnythingAndAreKeptVerbatim() throws {
        let text = "# \u{1B}[1mbold\u{1B}[0m and a\ttab\n[p]\n"
        #expect(try ConfigDocument(parsing: text, path: "/c").serialized(path: "/c") == text)
    }

    @Test(arguments: ["kcauth\n[evil]\nissuer = https://evil.example", "a\rb", "a\u{0}b", "\u{1B}]0;title\u{7}", "x\u{2029}y", "tab\there"])
    func aValueWithAControlCharacterIsNeverWritten(value: String) throws {
        var doc = try ConfigDocument(parsing: "[work]\nissuer = https://sso.example.com\n", path: "/c")
        doc.set("client_id", value, profile: "work")
        #expect(performing: { try doc.serialized(path: "/c") },
                throws: configurationError("/c: not saved: profile [work]: client_id: the value contains the control character U+"))
    }

    @Test func sectionNamesAndKeysAreCheckedOnWriteToo() {
        var badProfile = ConfigDocument()
        badProfile.set("issuer", "https://x", profile: "work]\n[evil")
        #expect(performing: { try badProfile.serialized(path: "/c") }, throws: configurationError("is not a valid profile name"))

        var badKey = ConfigDocument()
        badKey.set("issuer = https://evil\nclient_id", "x", profile: "work")
        #expect(performing: { try badKey.serialized(path: "/c") }, throws: configurationError("is not a valid key"))
    }

    @Test func aValueThatWouldReadBackDifferentlyIsNotWritten() {
        var doc = ConfigDocument()
        doc.set("scope", " openid ", profile: "p")
        #expect(performing: { try doc.serialized(path: "/c") }, throws: configurationError("begins or ends with whitespace"))
    }

    @Test func everythingSetReadsBackTheSame() throws {
        var doc = ConfigDocument()
        doc.set(ConfigDocument.defaultProfileKey, "work", profile: nil)
        doc.set("issuer", "https://sso.example.com/realms/ünïcode = ok ; # [not a section]", profile: "work")
        doc.set("ca_file", "/home/me/My CAs/corp.pem", profile: "work")
        let reread = try ConfigDocument(parsing: try doc.serialized(path: "/c"), path: "/c")
        #expect(reread == doc)
    }

    /// Inputs the fuzzer and people found odd: each is parsed or refused, never a trap.
    @Test(arguments: ["", "\u{FEFF}", "\r", "\r\n\r\n", "[", "]", "[]", "=", "==", "[\u{301}]", "[a]\u{301}", "\u{FEFF}\u{FEFF}[a]",
                      "a=\r", "[a]\r\n[a]\r\n", "\n\n\n", "#\r\n", " [ a ] ", "k = \u{FEFF}v"])
    func oddTextNeverTraps(text: String) {
        do {
            let doc = try ConfigDocument(parsing: text, path: "/c")
            _ = try? doc.serialized(path: "/c")
        } catch let error as KCAuthError {
            #expect(error.code == .configuration)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
