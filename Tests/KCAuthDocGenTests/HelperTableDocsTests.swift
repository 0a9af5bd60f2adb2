import Testing
@testable import KCAuthCLI
@testable import KCAuthDocGen
import KCAuthContract

/// The helper table (``CredentialHelper``) and what is installed and documented from it: the
/// symbolic links `make install` and the Debian package make, and the man page's NAME, SYNOPSIS
/// and FILES.
@Suite struct HelperTableDocsTests {
    static var programs: [String] { CredentialHelper.all.map(\.program) }

    /// The words of the one line `prefix…` of a file (`HELPER_LINKS = a b`, `helpers="a b"`).
    static func listed(in path: String, after prefix: String, quoted: Bool = false) throws -> [String] {
        let text = try Docs.read(path)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
        try #require(lines.count == 1, "\(path) has \(lines.count) lines starting with \(prefix)")
        var value = lines[0].dropFirst(prefix.count)
        if quoted {
            try #require(value.hasPrefix("\"") && value.hasSuffix("\""), "\(path): \(lines[0])")
            value = value.dropFirst().dropLast()
        }
        return value.split(separator: " ").map(String.init)
    }

    @Test func makeInstallLinksTheTablesProgramNames() throws {
        #expect(try Self.listed(in: "Makefile", after: "HELPER_LINKS = ") == Self.programs)
    }

    @Test func theDebianPackageLinksTheTablesProgramNames() throws {
        #expect(try Self.listed(in: "scripts/build-deb", after: "helpers=", quoted: true) == Self.programs)
        // Both the programs and their man pages come from that list, and no name is spelled elsewhere.
        let script = try Docs.read("scripts/build-deb")
        #expect(script.contains(#"for helper in $helpers; do ln -s kcauth "$root/usr/bin/$helper"; done"#))
        #expect(script.contains(#"for helper in $helpers; do ln -s kcauth.1.gz "$root/usr/share/man/man1/$helper.1.gz"; done"#))
        for program in Self.programs {
            #expect(script.components(separatedBy: program).count == 2, "\(program) is spelled out again in build-deb")
        }
    }

    /// A section of the man page as a reader sees it, its lines joined.
    static func section(_ page: String, _ title: String) -> String {
        let body = page.split(separator: ".SH \(title)\n")[1].split(separator: "\n.SH ")[0]
        return Docs.plain(String(body)).split(separator: "\n").filter { $0 != ".br" && !$0.hasPrefix(".") }.joined(separator: " ")
    }

    @Test func theManPageNamesEachHelperWithItsCommand() {
        let page = ManPage.render()
        #expect(Self.section(page, "NAME") == (["kcauth"] + Self.programs).joined(separator: ", ") + " - " + ManPageText.name)
        let synopsis = Self.section(page, "SYNOPSIS"), files = Self.section(page, "FILES")
        for helper in CredentialHelper.all {
            let usage = "{" + helper.actionWords.joined(separator: "|") + "} [flags]"
            #expect(synopsis.contains(helper.program + " " + usage), "SYNOPSIS lacks \(helper.program) \(usage)")
            #expect(files.contains("PREFIX/bin/" + helper.program), "FILES lacks \(helper.program)")
            #expect(files.contains("kcauth " + helper.command), "FILES lacks kcauth \(helper.command)")
        }
    }
}
