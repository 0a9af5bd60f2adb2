import Foundation
import Glibc
import Testing
@testable import KCAuthCLI
import KCAuthContract
import KCAuthCore
import KCAuthSystem
import KCAuthTestSupport

/// `kcauth ssh`'s pieces that need no sshd: the split of ssh's command line, the line that
/// crosses (never a refresh token), the agent's refusals, and the remote side's socket checks.
@Suite struct ForwardTests {
    @Test func sshArgumentsAreSplitAsSshReadsThem() throws {
        let a = try SSHArguments(["-p", "2222", "-tL", "8080:localhost:80", "-oLogLevel=ERROR", "-i", "key", "user@host", "ls", "-l"])
        #expect(a.destination == "user@host")
        #expect(a.command == ["ls", "-l"])
        #expect(a.options == [["-p", "2222"], ["-tL", "8080:localhost:80"], ["-oLogLevel=ERROR"], ["-i", "key"]])
        // The control connection gets no forwardings (the session's ssh sets them up once);
        // -oLogLevel is -o with a value, not -L.
        #expect(a.connectionOptions == ["-p", "2222", "-oLogLevel=ERROR", "-i", "key"])
        #expect(try SSHArguments(["host"]).command.isEmpty)
        #expect(try SSHArguments(["--", "host", "-v"]).command == ["-v"])
    }

    @Test func sshOptionsThatTakeOverTheConnectionAreRefused() {
        for refused in [["-M", "h"], ["-S", "/x", "h"], ["-O", "exit", "h"], ["-f", "h"], ["-N", "h"], ["-W", "a:1", "h"], ["-vf", "h"]] {
            #expect(throws: KCAuthError.self) { try SSHArguments(refused) }
        }
        #expect(throws: KCAuthError.self) { try SSHArguments(["-p"]) }
        #expect(throws: KCAuthError.self) { try SSHArguments(["-v"]) }
    }

    @Test func theParserHandsSingleDashWordsToSsh() throws {
        guard case .run(let c) = try ArgumentParser.parse(["ssh", "--profile", "a", "--profile", "b", "--scope", "openid", "-p", "22", "h", "kcauth", "token", "--profile", "b"]) else {
            Issue.record("not a command")
            return
        }
        #expect(c.allValues(SSHCommand.forwardProfile) == ["a", "b"])
        #expect(c.value(SSHCommand.scope) == "openid")
        #expect(c.positionals == ["-p", "22", "h", "kcauth", "token", "--profile", "b"])
    }

    @Test func theAnswerCarriesNoRefreshTokenAndReadsBack() throws {
        let token = IssuedToken(SessionFixtures.state(refreshToken: "REFRESH-SECRET"))
        let line = ForwardMessage.answer(token, profile: "work", idToken: true, username: "oauth2")
        #expect(!line.contains("REFRESH-SECRET") && !line.contains("refresh"))
        let back = try #require(try ForwardMessage.parseHelperAnswer(Array(line.utf8)))
        #expect(back.profile == "work" && back.username == "oauth2")
        #expect(back.token.accessToken == token.accessToken && back.token.idToken == token.idToken && back.token.expiresAt == token.expiresAt)
        #expect(try ForwardMessage.parseHelperAnswer(Array(ForwardMessage.notServed.utf8)) == nil)
    }

    @Test func aSignInNeededOnTheLaptopIsExit4WithTheLaptopsHint() {
        let line = ForwardMessage.failure(KCAuthError(.loginRequired, "not logged in"), profile: "work")
        do {
            _ = try ForwardMessage.parseAnswer(Array(line.utf8))
            Issue.record("no error")
        } catch let error as KCAuthError {
            #expect(error.code == .loginRequired)
            #expect(ExitStatus.of(error.code).code == 4)
            #expect(error.message.contains("on the laptop") && error.remedy == .signInOnLaptop(profile: "work"))
            #expect(ErrorPresenter.fix(for: error).contains("sign in on the laptop (kcauth login --profile work)"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func requestsReadBackAndNonsenseIsRejected() throws {
        let r = ForwardMessage.Request(profile: nil, minValid: 30, idToken: true, host: "git.example.com")
        #expect(ForwardMessage.Request(line: Array(r.line.utf8)) == r)
        #expect(ForwardMessage.Request(line: Array("{\"min_valid\":-1}".utf8)) == nil)
        #expect(ForwardMessage.Request(line: Array("[]".utf8)) == nil)
    }

    @Test func theAgentsHelpNamesWhereItsSocketReallyGoes() {
        // The code makes it in Paths.lockDirectory: /run/user/UID/kcauth-locks, else the home's.
        let help = HelpText.command(ForwardAgentCommand.spec)
        #expect(!help.contains("/tmp/kcauth-") && !help.contains("XDG_RUNTIME_DIR"))
        #expect(help.contains("/run/user/UID/kcauth-locks") && help.contains("~/.local/state/kcauth/locks"))
    }

    @Test func theFrontHandsOffWheneverAForwardIsAnnounced() {
        #expect(CacheGate.environmentAllows { _ in nil })
        #expect(!CacheGate.environmentAllows { $0 == ForwardRule.variable ? "/tmp/x/agent.sock" : nil })
        #expect(!CacheGate.environmentAllows { $0 == ForwardRule.variable ? "relative" : nil })
    }

    @Test func theRemoteSideTellsItsOwnLiveSocketFromOthersAndFromADeadOne() throws {
        let base = FileManager.default.temporaryDirectory.path + "/kcauth-forward.\(UUID().uuidString.prefix(10))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: base) }
        let path = base + "/agent.sock"
        let fd = try ForwardSocket.listen(path: path)
        #expect(ForwardSocket.inspect(path: path) == .live)
        chmod(base, 0o777)
        #expect(ForwardSocket.inspect(path: path) == .unsafe("\(base) can be written by others"))
        chmod(base, 0o700)
        #expect(ForwardSocket.inspect(path: path, uid: geteuid() + 1) == .notYours(uid: geteuid()))
        #expect(ForwardSocket.inspect(path: base + "/missing") == .absent)
        #expect(ForwardSocket.inspect(path: "/nonexistent-\(UUID().uuidString)/agent.sock") == .absent)
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)

        // Nothing listens any more (the connection that forwarded it ended): dead, and removed
        // with the directory `kcauth ssh` made for it.
        close(fd)
        #expect(ForwardSocket.inspect(path: path) == .dead)
        ForwardSocket.removeDead(path: path, uid: geteuid() + 1)
        #expect(access(path, F_OK) == 0, "someone else's is not removed")
        ForwardSocket.removeDead(path: path)
        #expect(access(path, F_OK) != 0 && access(base, F_OK) != 0)
    }

    @Test func aSilentClientDelaysNoOther() throws {
        let base = FileManager.default.temporaryDirectory.path + "/kcauth-fwd-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: base) }
        let listener = try SocketForwardListener(path: base + "/agent.sock")
        let stop = Flag()
        let serving = Thread { while !stop.isSet { listener.serve(milliseconds: 50) { _ in #"{"access_token":"at"}"# } } }
        serving.start()
        defer {
            stop.set()
            while !serving.isFinished { usleep(10_000) }
            listener.close()
        }
        // Two clients connect and say nothing; a third asks and is answered at once.
        let silent = try (0..<2).map { _ in try ForwardSocket.connect(path: listener.path, seconds: 10) }
        defer { silent.forEach { close($0) } }
        usleep(100_000)
        let started = ForwardSocket.monotonic()
        let asking = try ForwardSocket.connect(path: listener.path, seconds: 10)
        defer { close(asking) }
        #expect(ForwardSocket.writeLine(asking, ForwardMessage.Request(profile: nil, minValid: 30, idToken: false).line, milliseconds: 1_000))
        #expect(ForwardSocket.readLine(asking, milliseconds: 5_000) == Array(#"{"access_token":"at"}"#.utf8))
        #expect(ForwardSocket.monotonic() - started < 1.0)
        // The silent ones are told their request never came once their short deadline passed.
        #expect(ForwardSocket.readLine(silent[0], milliseconds: 5_000).map { String(decoding: $0, as: UTF8.self) }?.contains("unreadable request") == true)
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
