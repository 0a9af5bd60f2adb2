import Testing
@testable import KCAuth
import KCAuthTestSupport

/// `kcauth profiles` and `kcauth use` on the hand-edited config file (`ProfileFixtures`).
@Suite struct ProfilesTests {
    static let text = ProfileFixtures.text

    @Test func useSetsAGlobalDefaultProfile() throws {
        var doc = try ConfigDocument(parsing: Self.text, path: "/c")
        try Use.setDefault("work", in: &doc, path: "/c")
        #expect(try doc.defaultProfile(path: "/c") == "work")
        let reparsed = try ConfigDocument(parsing: doc.text, path: "/c")
        #expect(reparsed.value("default_profile", profile: nil) == "work" && reparsed.profileNames == ["default", "work", "old"])
        try Use.setDefault("default", in: &doc, path: "/c")
        #expect(try doc.defaultProfile(path: "/c") == "default")
    }

    @Test func useRefusesUnknownAndInvalidNames() throws {
        var doc = try ConfigDocument(parsing: Self.text, path: "/c")
        #expect { try Use.setDefault("wrok", in: &doc, path: "/c") } throws: {
            ($0 as? KCAuthError)?.code == .usage && ($0 as? KCAuthError)?.message == "there is no profile 'wrok' in /c"
        }
        #expect { try Use.setDefault("../x", in: &doc, path: "/c") } throws: { ($0 as? KCAuthError)?.code == .usage }
    }

    @Test func listMarksDefaultAndSelected() throws {
        var doc = try ConfigDocument(parsing: Self.text, path: "/c")
        doc.set("default_profile", "work", profile: nil)
        let list = try Profiles.list(doc, path: "/c", selected: "old")
        #expect(list.map(\.name) == ["default", "work", "old"])
        #expect(list.map(\.isDefault) == [false, true, false] && list.map(\.selected) == [false, false, true])
        #expect(list[1].settings.last == Profiles.Setting(key: "storage", value: "file"))
        #expect(try Profiles.list(ConfigDocument(), path: "/c", selected: "default").isEmpty, "no phantom 'default'")
        #expect(try Profiles.list(doc, path: "/c", selected: "nosuch").allSatisfy { !$0.selected })
    }
}
