import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthFastPath
import KCAuthContract

/// `--debug` in the front: when it looks (one check), which words are the flag, and the rule it
/// names when it hands a `token` to the full program.
@Suite struct FrontTraceTests {
    typealias World = FastTokenPathTests.World

    func decide(_ w: World, _ arguments: [String] = ["token"]) -> FrontDecision {
        FastTokenPath.decide(arguments: arguments, environment: { w.environment[$0] }, read: w.read, mark: { p, _ in w.marks[p] },
                             now: w.now, directoryProfile: { w.directory })
    }

    @Test func theFlagIsDebugAloneOrWithAValue() {
        for word in ["--debug", "--debug=json", "--debug=", "--debug=x"] { #expect(FrontTrace.isFlag(word), "\(word)") }
        for word in ["--debu", "--debugger", "-debug", "debug", "--Debug", "token", ""] { #expect(!FrontTrace.isFlag(word), "\(word)") }
    }

    @Test func theFlagIsTakenFromKcauthsOwnWordsOnly() {
        func rest(_ arguments: [String]) -> [String]? {
            guard case .on(let writer, let rest) = FrontTrace.setting(arguments, environment: { _ in nil }) else { return nil }
            #expect(writer.fd == 2 && writer.mode == .text)
            return rest
        }
        #expect(rest(["--debug", "token", "--profile", "work"]) == ["token", "--profile", "work"])
        #expect(rest(["token", "--debug", "-o", "json"]) == ["token", "-o", "json"])
        #expect(rest(["exec", "--debug", "--profile", "p", "--", "curl", "--debug"]) == ["exec", "--profile", "p", "--", "curl", "--debug"])
        #expect(rest(["exec", "--profile", "p", "curl", "--debug"]) == nil, "the command's --debug asks the front for nothing")
    }

    @Test func aBadSettingOrFileIsTheFullProgramsToRefuse() {
        func setting(_ arguments: [String], _ environment: [String: String]) -> FrontTrace.Setting {
            FrontTrace.setting(arguments, environment: { environment[$0] })
        }
        guard case .handOff = setting(["token", "--debug=xml"], [:]) else { Issue.record("--debug=xml is served"); return }
        guard case .handOff = setting(["token"], ["KCAUTH_DEBUG": "verbose"]) else { Issue.record("KCAUTH_DEBUG=verbose is served"); return }
        guard case .handOff = setting(["token"], ["KCAUTH_DEBUG": "1", "KCAUTH_DEBUG_FILE": "/proc/nonexistent/x"]) else {
            Issue.record("a file that cannot be opened is served"); return
        }
        guard case .off = setting(["token"], ["KCAUTH_DEBUG": "0"]) else { Issue.record("KCAUTH_DEBUG=0 traces"); return }
        guard case .on(let writer, _) = setting(["token", "--debug=json"], ["KCAUTH_DEBUG": "0"]), writer.mode == .json else {
            Issue.record("the flag does not win"); return
        }
    }

    @Test func aWarmTokenIsServedAndEachDeclineNamesItsRule() {
        #expect(decide(World()) == .served("eyJ.a-b_c.d\n", profile: "default"))
        #expect(decide(World(), ["token", "--id-token"]) == .handedOff(.arguments))
        var w = World()
        w.environment["KCAUTH_ISSUER"] = "https://elsewhere"
        #expect(decide(w) == .handedOff(.environment))
        w = World(); w.files["/home/u/.config/kcauth/config"] = nil
        #expect(decide(w) == .handedOff(.configuration))
        w = World(); w.files["/run/user/1000/kcauth/default.token"] = nil
        #expect(decide(w) == .handedOff(.noCache))
        w = World(); w.privateOnly.remove("/run/user/1000/kcauth")
        #expect(decide(w) == .handedOff(.runtimeDirectory))
        w = World(); w.marks["default"] = .ended("s-1")
        #expect(decide(w) == .handedOff(.sessionMark))
        w = World(); w.now = FastTokenPathTests.now + 3_590
        #expect(decide(w) == .handedOff(.expiring))
        w = World(); w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache(clientID: "other")
        #expect(decide(w) == .handedOff(.otherSession))
        w = World(); w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache().swapping("\"Bearer\"", "\"DPoP\"")
        #expect(decide(w) == .handedOff(.dpop))
        w = World(); w.environment["KUBERNETES_EXEC_INFO"] = "not json"
        #expect(decide(w) == .handedOff(.execInfo))
    }

    /// The front's line is the contract's layout: the same as kcauth-full's lines.
    @Test func theLineIsInTheTracesLayout() throws {
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        defer { close(pipe[0]) }
        FrontTrace.note(TraceWriter(fd: pipe[1], mode: .json), "token", .handedOff(.noCache))
        close(pipe[1])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(pipe[0], &buffer, buffer.count)
        let line = String(decoding: buffer[..<max(n, 0)], as: UTF8.self)
        #expect(line.hasPrefix(#"{"time":""#) && line.hasSuffix("\n"))
        #expect(line.contains(#""event":"front.decision","command":"token","program":"kcauth (front)","decision":"handed to kcauth-full","reason":"no cached token"}"#))
    }
}

private extension String {
    func swapping(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
