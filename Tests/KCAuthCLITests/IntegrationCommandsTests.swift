import Testing
@testable import KCAuthCLI

@Suite struct IntegrationCommandsTests {
    @Test func execTakesRepeatedEnvAndLeavesTheCommandLineAlone() throws {
        guard case .run(let c) = try ArgumentParser.parse(["exec", "--env", "A", "--profile", "p", "--env=B=id", "cmd", "-x", "--", "--env", "y"]) else {
            Issue.record("not a run")
            return
        }
        #expect(c.allValues(ExecCommand.env) == ["A", "B=id"])
        #expect(c.value(CommandTable.profile) == "p")
        #expect(c.positionals == ["cmd", "-x", "--", "--env", "y"])
        guard case .run(let dashed) = try ArgumentParser.parse(["exec", "--", "ls", "-l"]) else { return }
        #expect(dashed.positionals == ["ls", "-l"])
    }

    @Test func otherCommandsStillTakeAtMostTheirPositionals() {
        #expect(throws: (any Error).self) { try ArgumentParser.parse(["git-credential", "get", "extra"]) }
    }

    @Test func theHelperNamesRunTheirCommands() {
        #expect(ProgramName.arguments(["/usr/bin/git-credential-kcauth", "get"]) == ["git-credential", "get"])
        #expect(ProgramName.arguments(["docker-credential-kcauth", "list"]) == ["docker-credential", "list"])
        #expect(ProgramName.arguments(["/usr/bin/kcauth", "token"]) == ["token"])
        #expect(ProgramName.arguments(["/opt/git-credential-kcauth-old", "get"]) == ["get"])
    }
}
