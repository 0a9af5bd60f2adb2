import Testing
@testable import KCAuthCLI
import KCAuthTestSupport

/// `kcauth completion SHELL` prints the generated script for that shell (the scripts ship in the
/// binary; their content is checked in KCAuthDocGenTests, with the other generated docs).
@Suite struct CompletionCommandTests {
    @Test func completionCommandPrintsTheGeneratedScript() throws {
        #expect(try ArgumentParser.parse(["completion", "zsh"]) == .run(ParsedCommand(name: "completion", positionals: ["zsh"])))
        #expect(throws: (any Error).self) { try ArgumentParser.parse(["completion", "tcsh"]) }
        for shell in CompletionCommand.Shell.allCases {
            let console = RecordingConsole()
            #expect(KCAuthMain.run(arguments: ["completion", shell.rawValue], environment: [:], console: console) == 0)
            #expect(console.stdout == shell.script)
        }
    }
}
