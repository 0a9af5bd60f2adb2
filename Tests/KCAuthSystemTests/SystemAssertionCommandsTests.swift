import Foundation
import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// The program of a `command:` assertion source, really run: stdout captured, no shell, stdin
/// not kcauth's, the exit status as a shell gives it, and a program that hangs or floods
/// stdout stopped.
@Suite("SystemAssertionCommands")
struct SystemAssertionCommandsTests {
    let runner = SystemAssertionCommands(environment: ["PATH": "/usr/bin:/bin", "KEPT": "from kcauth"])

    @Test func stdoutTheExitStatusAndTheEnvironment() throws {
        let outcome = try runner.run(["sh", "-c", "printf '%s|%s|' \"$KEPT\" \"$AUD\"; cat; exit 0"], environment: ["AUD": "the-aud"],
                                     seconds: 5, limit: 1024)
        #expect(outcome == .exited(status: 0, output: Array("from kcauth|the-aud|".utf8)), "stdin is /dev/null, not kcauth's")
        #expect(try runner.run(["sh", "-c", "exit 7"], environment: [:], seconds: 5, limit: 1024) == .exited(status: 7, output: []))
        #expect(try runner.run(["sh", "-c", "kill -TERM $$"], environment: [:], seconds: 5, limit: 1024) == .exited(status: 128 + 15, output: []))
    }

    @Test func argumentsAreWordsNotShellText() throws {
        #expect(try runner.run(["printf", "%s", "$(id) ; *"], environment: [:], seconds: 5, limit: 1024) == .exited(status: 0, output: Array("$(id) ; *".utf8)))
    }

    @Test func aProgramStillRunningAtTheDeadlineIsStopped() throws {
        let start = Date()
        #expect(try runner.run(["sleep", "30"], environment: [:], seconds: 0.5, limit: 1024) == .timedOut)
        // Closed its stdout, but did not exit.
        #expect(try runner.run(["sh", "-c", "exec >&-; sleep 30"], environment: [:], seconds: 0.5, limit: 1024) == .timedOut)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// Something it leaves running in the background holds its stdout and stderr: its exit is
    /// what counts, not the pipes' end.
    @Test func aProgramThatLeavesAChildBehindIsDoneWhenItExits() throws {
        let start = Date()
        let outcome = try runner.run(["sh", "-c", "sleep 3 & echo $! > /dev/null; printf token"], environment: [:], seconds: 10, limit: 1024)
        #expect(outcome == .exited(status: 0, output: Array("token".utf8)))
        #expect(Date().timeIntervalSince(start) < 2.5)
    }

    @Test func tooMuchOutputStopsIt() throws {
        #expect(try runner.run(["yes"], environment: [:], seconds: 5, limit: 4096) == .outputTooLarge)
    }

    @Test func aProgramThatIsNotThereIsNamed() {
        let error = #expect(throws: KCAuthError.self) { try runner.run(["no-such-program-kcauth"], environment: [:], seconds: 1, limit: 10) }
        #expect(error?.code == .configuration && error?.message == "cannot start the client assertion command no-such-program-kcauth: not found on PATH")
    }
}
