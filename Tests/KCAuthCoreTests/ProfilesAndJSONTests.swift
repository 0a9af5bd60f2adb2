import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// Profile operations on the hand-edited config file, and the JSON kcauth prints (`profiles`
/// and `use` themselves: ProfilesTests in KCAuthTests).
@Suite struct ProfilesAndJSONTests {
    static let text = ProfileFixtures.text

    @Test func entriesAreTheSectionsLinesInOrder() throws {
        let doc = try ConfigDocument(parsing: Self.text, path: "/c")
        #expect(doc.entries(profile: "work").map(\.key) == ["issuer", "client_id", "storage"])
        #expect(doc.entries(profile: nil).isEmpty && doc.entries(profile: "nope").isEmpty)
    }

    @Test func removingAProfileKeepsEverythingElse() throws {
        var doc = try ConfigDocument(parsing: Self.text, path: "/c")
        let removed = doc.removeProfile("work")
        #expect(removed)
        #expect(doc.text == """
        # kcauth settings
        [default]
        issuer = https://a/realms/x
        client_id = cli

        ; trailing comment
        [old]
        port = 8400

        """)
        let again = doc.removeProfile("work"), old = doc.removeProfile("old"), first = doc.removeProfile("default")
        #expect(!again && old && first)
        #expect(doc.text == "# kcauth settings\n", "comments that open the file stay")
    }

    @Test func aBadDefaultProfileNamesTheFile() throws {
        let doc = try ConfigDocument(parsing: "default_profile = a b\n", path: "/cfg")
        #expect { try doc.defaultProfile(path: "/cfg") } throws: {
            ($0 as? KCAuthError)?.code == .configuration && ($0 as? KCAuthError)?.message.hasPrefix("/cfg:1: default_profile") == true
        }
    }

    @Test func jsonIsRenderedInMemberOrderWithNulls() {
        let doc = JSONValue.fields([
            ("b", .number(300)), ("a", .string("x\"\n\u{1}é")), ("n", .null),
            ("list", .strings(["p", "q"])), ("empty", .array([])), ("o", .fields([("k", .bool(true)), ("f", .number(1.5))])),
        ])
        #expect(doc.rendered() == """
        {
          "b": 300,
          "a": "x\\"\\n\\u0001é",
          "n": null,
          "list": [
            "p",
            "q"
          ],
          "empty": [],
          "o": {
            "k": true,
            "f": 1.5
          }
        }

        """)
        #expect(doc.compact == #"{"b":300,"a":"x\"\n\u0001é","n":null,"list":["p","q"],"empty":[],"o":{"k":true,"f":1.5}}"#)
    }

    @Test func jsonParsesAnyDocumentAndSortsKeys() throws {
        let v = try #require(JSONValue.parse(Array(#"{"z":[1,true,null,"s"],"a":{"y":-2.5}}"#.utf8)))
        #expect(v.members?.map(\.key) == ["a", "z"])
        #expect(v["z"] == .array([.number(1), .bool(true), .null, .string("s")]))
        #expect(v["a"]?["y"] == .number(-2.5))
        #expect(JSONValue.parse(Array("not json".utf8)) == nil)
    }
}
