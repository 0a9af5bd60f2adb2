import Foundation
import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthContract
import KCAuthCore
import KCAuthTestSupport

/// `--debug[=FORMAT]` on every command (before or after its name), `KCAUTH_DEBUG`, and what a
/// session's commands trace, in-process over the fakes: every event a sign-in, a token and a
/// refresh make, and stdout the same with or without a trace.
@Suite struct TraceOptionTests {
    func parsed(_ arguments: [String]) throws -> ParsedCommand {
        guard case .run(let command) = try ArgumentParser.parse(arguments) else { throw KCAuthError(.usage, "not a command") }
        return command
    }

    @Test(arguments: [
        (["--debug", "token"], ""), (["token", "--debug"], ""), (["--debug=json", "status"], "json"),
        (["whoami", "--debug=text"], "text"), (["exec", "--debug", "--", "env"], ""),
    ])
    func everyCommandTakesItBeforeOrAfterItsName(_ arguments: [String], _ value: String) throws {
        #expect(try parsed(arguments).values["debug"] == value)
    }

    @Test func aWordAfterItIsNeverItsValue() throws {
        #expect(try parsed(["--debug", "token"]).name == "token")
        #expect(throws: KCAuthError.self) { try ArgumentParser.parse(["token", "--debug", "json"]) }
        #expect(throws: KCAuthError.self) { try ArgumentParser.parse(["token", "--debug=xml"]) }
        // After exec's COMMAND, --debug is the command's.
        let exec = try parsed(["exec", "curl", "--debug"])
        #expect(exec.values["debug"] == nil && exec.positionals == ["curl", "--debug"])
    }

    @Test func theFlagWinsOverTheVariableAndABadVariableIsAUsageError() throws {
        #expect(try TraceOption.mode(parsed(["token"]), environment: [:]) == nil)
        #expect(try TraceOption.mode(parsed(["token"]), environment: ["KCAUTH_DEBUG": "off"]) == nil)
        #expect(try TraceOption.mode(parsed(["token"]), environment: ["KCAUTH_DEBUG": "json"]) == .json)
        #expect(try TraceOption.mode(parsed(["token", "--debug"]), environment: ["KCAUTH_DEBUG": "json"]) == .text)
        #expect(try TraceOption.mode(parsed(["token", "--debug"]), environment: ["KCAUTH_DEBUG": "nonsense"]) == .text)
        let error = try #require(throws: KCAuthError.self) { try TraceOption.mode(parsed(["token"]), environment: ["KCAUTH_DEBUG": "verbose"]) }
        #expect(error.code == .usage && error.message == "KCAUTH_DEBUG is 'verbose': use 1, text or json")
    }

    @Test func helpShowsTheOptionalValue() {
        #expect(HelpText.command(TokenCommand.spec).contains("--debug[=FORMAT]"))
        #expect(HelpText.general().contains("--debug[=FORMAT]"))
    }

    // MARK: what a session's commands trace

    final class Session {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        init() {
            fake.serveProvider()
            fake.browserSignsIn(code: "c0de-SECRET-1")
        }

        func run(_ args: [String], trace: RecordingTrace?) -> (code: Int32, out: String) {
            fake.trace = trace ?? NoTrace()
            let console = RecordingConsole()
            let code = KCAuthMain.run(arguments: args, services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
            return (code, console.stdout)
        }
    }

    @Test func aSessionsCommandsTraceEveryStepAndNoSecret() throws {
        let session = Session(), trace = RecordingTrace()
        #expect(session.run(["login", "--browser"], trace: trace).code == 0)
        #expect(session.run(["token"], trace: trace).out == "at-1\n")
        session.fake.transport.replace(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse(accessToken: "at-2"))
        #expect(session.run(["refresh"], trace: trace).code == 0)
        for name in ["command.start", "discovery.fetched", "flow.chosen", "authorize.request", "browser.launch", "http.request",
                     "http.response", "jwks.keys", "store.write", "token.cache", "store.read", "lock.acquired", "refresh.start", "command.end"] {
            #expect(trace.names.contains(name), "no \(name) in \(trace.names)")
        }
        let state = try AuthState.decode(try #require(session.fake.keyring.items["default"]?.1), profile: "default")
        let lines = trace.lines(.text) + trace.lines(.json)
        var secrets = [state.accessToken.reveal(), state.refreshToken!.reveal(), state.idToken!.reveal(), "at-1", "c0de-SECRET-1"]
        // The authorization request's own secrets, as the provider (the fake) received them.
        let pushed = formFields(of: try #require(session.fake.transport.requests(to: Fixtures.parEndpoint).first))
        secrets += [pushed["state"]!, pushed["nonce"]!]
        let redeemed = formFields(of: try #require(session.fake.transport.requests(to: Fixtures.tokenEndpoint).first))
        secrets.append(redeemed["code_verifier"]!)
        for secret in secrets {
            #expect(!lines.contains(secret), "\(secret) is in the trace")
            #expect(!lines.contains(FormEncoding.escape(secret)), "\(secret), percent-encoded, is in the trace")
        }
    }

    @Test func standardOutputIsTheSameWithOrWithoutATrace() {
        let untraced = Session(), traced = Session()
        for args in [["login", "--browser", "-o", "json"], ["token"], ["token", "-o", "json"], ["whoami", "-o", "json"], ["status"]] {
            let plain = untraced.run(args, trace: nil), withTrace = traced.run(args, trace: RecordingTrace())
            #expect(plain.code == withTrace.code && plain.out == withTrace.out, "\(args)")
        }
    }
}
