import Testing
@testable import KCAuthCLI
import KCAuthTestSupport

/// The committed man page and completion scripts are generated files: they must be exactly
/// what this build's command table generates, or packages would ship stale documentation.
@Suite struct GeneratedDocsTests {
    static let files: [String] = ["man/kcauth.1", "completions/kcauth.bash", "completions/_kcauth", "completions/kcauth.fish"]

    static func generated(_ path: String) -> String {
        switch path {
        case "man/kcauth.1": return ManPage.render()
        case "completions/kcauth.bash": return Completions.bash()
        case "completions/_kcauth": return Completions.zsh()
        default: return Completions.fish()
        }
    }

    @Test(arguments: files)
    func committedFileMatchesTheCommandTable(path: String) throws {
        let committed = try Docs.read(path)
        let expected = Self.generated(path)
        guard committed != expected else { return }
        let a = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let b = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = Array(zip(a, b)).firstIndex { $0 != $1 } ?? min(a.count, b.count)
        Issue.record("""
            \(path) is out of date: run scripts/generate-docs and commit the result.
            First difference at line \(line + 1):
              committed: \(line < a.count ? String(a[line]) : "(end of file)")
              generated: \(line < b.count ? String(b[line]) : "(end of file)")
            """)
    }

    @Test func manCommandAndCompletionCommandPrintTheGeneratedText() throws {
        #expect(try ArgumentParser.parse(["__man"]) == .run(ParsedCommand(name: "__man")))
        #expect(try ArgumentParser.parse(["completion", "zsh"]) == .run(ParsedCommand(name: "completion", positionals: ["zsh"])))
        #expect(throws: (any Error).self) { try ArgumentParser.parse(["completion", "tcsh"]) }
        for shell in CompletionCommand.Shell.allCases {
            let console = RecordingConsole()
            #expect(KCAuthMain.run(arguments: ["completion", shell.rawValue], environment: [:], console: console) == 0)
            #expect(console.stdout == shell.script)
        }
        let console = RecordingConsole()
        #expect(KCAuthMain.run(arguments: ["__man"], environment: [:], console: console) == 0)
        #expect(console.stdout == ManPage.render())
    }
}
