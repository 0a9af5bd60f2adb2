import Foundation
import Testing
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// `ssh` and `forward-agent` over fakes: which profile answers, what is refused and logged, the
/// steps of a connection and their clean-up, and the remote side's reading of the laptop.
@Suite struct ForwardUseCaseTests {
    static let config = FakeAdapters.profileConfig + "hosts = git.example.com\nusername = robot\n"
        + "[other]\nissuer = \(Fixtures.issuer)\nclient_id = kcauth\nhosts = other.example.com\n"

    /// The laptop: `default` signed in, `other` configured.
    func laptop() throws -> (FakeAdapters, KCAuthContext) {
        let fake = FakeAdapters(config: Self.config)
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
        return (fake, KCAuthContext(adapters: fake.adapters))
    }

    func answers(_ context: KCAuthContext, _ fake: FakeAdapters, profiles: [String] = ["default"]) -> ForwardAnswers {
        ForwardAnswers(context: context, host: fake.forwardHost, profiles: profiles, scope: nil, destination: "build.example.com")
    }

    @Test func aForwardedProfileIsAnsweredWithItsAccessTokenOnly() throws {
        let (fake, context) = try laptop()
        let line = answers(context, fake).answer(ForwardMessage.Request(profile: nil, minValid: 30, idToken: false))
        let back = try ForwardMessage.parseAnswer(Array(line.utf8))
        #expect(back.profile == "default" && back.token.accessToken == "at-1")
        #expect(!line.contains("rt-1") && !line.contains("id_token"))
        #expect(fake.forwardHost.logLines.count == 1)
        #expect(fake.forwardHost.logLines[0].hasSuffix("destination=build.example.com profile=default scope=- answer=access_token\n"))
    }

    @Test func aProfileThatIsNotForwardedIsRefusedAndLogged() throws {
        let (fake, context) = try laptop()
        let line = answers(context, fake).answer(ForwardMessage.Request(profile: "other", minValid: 30, idToken: false))
        #expect(line.contains("is not forwarded") && !line.contains("access_token"))
        #expect(fake.forwardHost.logLines.last?.contains("profile=other scope=- refused=not-forwarded") == true)
    }

    @Test func aHelperIsServedOnlyForAHostAForwardedProfileLists() throws {
        let (fake, context) = try laptop()
        let agent = answers(context, fake)
        let git = agent.answer(ForwardMessage.Request(profile: nil, minValid: 60, idToken: false, host: "git.example.com"))
        #expect(try ForwardMessage.parseHelperAnswer(Array(git.utf8))?.username == "robot")
        // `other` lists the host, but it is not forwarded: nothing is served.
        #expect(agent.answer(ForwardMessage.Request(profile: nil, minValid: 60, idToken: false, host: "other.example.com"))
                == ForwardMessage.notServed)
        #expect(fake.forwardHost.logLines.last?.contains("refused=host-not-listed host=other.example.com") == true)
    }

    @Test func aSignInNeededOnTheLaptopIsTheAnswer() throws {
        let fake = FakeAdapters(config: Self.config)
        let line = answers(KCAuthContext(adapters: fake.adapters), fake).answer(ForwardMessage.Request(profile: nil, minValid: 30, idToken: true))
        #expect { try ForwardMessage.parseAnswer(Array(line.utf8)) } throws: {
            ($0 as? KCAuthError)?.code == .loginRequired && ($0 as? KCAuthError)?.remedy == .signInOnLaptop(profile: "default")
        }
        #expect(fake.forwardHost.logLines.last?.contains("error=loginRequired") == true)
    }

    func sshRequest(profiles: [String] = ["default"]) -> SSHForward.Request {
        SSHForward.Request(options: [["-p", "2222"], ["-L", "8080:localhost:80"]], connectionOptions: ["-p", "2222"],
                           destination: "admin@host", command: ["kcauth", "token"], profiles: profiles, scope: nil)
    }

    /// The laptop at `Fixtures.now + elapsed`, its session obtained at `Fixtures.now` with an
    /// access token of `lifetime` seconds; refreshes answered with a fresh one of that lifetime.
    func laptop(elapsed: Double, lifetime: Double) throws -> (FakeAdapters, ForwardAnswers) {
        let fake = FakeAdapters(config: Self.config)
        try SessionFixtures.store(SessionFixtures.state(expiresIn: lifetime), in: fake.keyring)
        fake.clock = FixedClock(time: Fixtures.now + elapsed)
        fake.transport.on(.post, Fixtures.tokenEndpoint, json: #"{"access_token":"at-2","token_type":"Bearer","expires_in":\#(Int(lifetime)),"refresh_token":"rt-2"}"#)
        return (fake, answers(KCAuthContext(adapters: fake.adapters), fake))
    }

    func token(_ line: String) throws -> IssuedToken { try ForwardMessage.parseAnswer(Array(line.utf8)).token }

    @Test func aRequestForMoreThanAFreshTokenGivesIsCappedAndRefreshesNothing() throws {
        // 300 s tokens, 10 s old: a day's validity cannot be had; 290 s left is what a fresh
        // token gives, less the margin (270 s).
        let (fake, agent) = try laptop(elapsed: 10, lifetime: 300)
        for _ in 0..<3 {
            #expect(try token(agent.answer(ForwardMessage.Request(profile: nil, minValid: 86_400, idToken: false))).accessToken == "at-1")
        }
        #expect(fake.transport.requests.isEmpty)
        #expect(fake.forwardHost.logLines.allSatisfy { $0.hasSuffix("answer=access_token min_valid=capped\n") })
    }

    @Test func aTokenBelowTheCapIsRefreshedOnceThenServed() throws {
        // 200 s into a 300 s token: below the cap (270 s), refreshed; the fresh one then serves.
        let (fake, agent) = try laptop(elapsed: 200, lifetime: 300)
        #expect(try token(agent.answer(ForwardMessage.Request(profile: nil, minValid: 86_400, idToken: false))).accessToken == "at-2")
        #expect(try token(agent.answer(ForwardMessage.Request(profile: nil, minValid: 86_400, idToken: false))).accessToken == "at-2")
        #expect(fake.transport.requests(to: Fixtures.tokenEndpoint).count == 1)
        #expect(fake.forwardHost.logLines[0].hasSuffix("answer=access_token min_valid=capped refresh=done\n"))
        // A request that asks for no more than the token has is answered as asked.
        #expect(try token(agent.answer(ForwardMessage.Request(profile: nil, minValid: 30, idToken: false))).accessToken == "at-2")
        #expect(fake.forwardHost.logLines[2].hasSuffix("answer=access_token\n"))
    }

    @Test func refreshesAForwardCausesAreRateLimitedPerProfile() throws {
        // 60 s tokens (cap 45 s), refreshed 20 s ago: 40 s left is short of the cap, but a
        // refresh within 30 s of the last one is held back; the held token is the freshest.
        let (fake, agent) = try laptop(elapsed: 20, lifetime: 60)
        #expect(try token(agent.answer(ForwardMessage.Request(profile: nil, minValid: 86_400, idToken: false))).accessToken == "at-1")
        #expect(fake.transport.requests.isEmpty)
        #expect(fake.forwardHost.logLines[0].hasSuffix("answer=access_token min_valid=capped refresh=limited\n"))
        // A token that is no longer valid at all is refreshed whatever the limit.
        let (expired, expiredAgent) = try laptop(elapsed: 61, lifetime: 60)
        #expect(try token(expiredAgent.answer(ForwardMessage.Request(profile: nil, minValid: 30, idToken: false))).accessToken == "at-2")
        #expect(expired.transport.requests.count == 1)
    }

    @Test func aNarrowedScopeRefreshesOnceAndServesItsTokenAfter() throws {
        let (fake, _) = try laptop(elapsed: 0, lifetime: 300)
        let agent = ForwardAnswers(context: KCAuthContext(adapters: fake.adapters), host: fake.forwardHost, profiles: ["default"],
                                   scope: "openid", destination: "build.example.com")
        for _ in 0..<3 {
            #expect(try token(agent.answer(ForwardMessage.Request(profile: nil, minValid: 60, idToken: false))).accessToken == "at-2")
        }
        #expect(fake.transport.requests(to: Fixtures.tokenEndpoint).count == 1)
        #expect(formFields(of: try #require(fake.transport.requests.first))["scope"] == "openid")
        #expect(fake.forwardHost.logLines[0].hasSuffix("scope=openid answer=access_token refresh=done\n"))
    }

    @Test func aForwardRemovesTheDirectoriesOfKilledForwardsFirst() throws {
        let (fake, context) = try laptop()
        fake.forwardHost.orphans = ["/run/kcauth/forward-killed"]
        fake.ssh.results = [(255, "")]
        _ = try context.sshForward().run(sshRequest())
        #expect(fake.forwardHost.orphans.isEmpty)
        fake.forwardHost.orphans = ["/run/kcauth/forward-killed"]
        try context.forwardAgent().run(profiles: ["default"], scope: nil, socket: nil) { _ in }
        #expect(fake.forwardHost.orphans.isEmpty)
    }

    @Test func aConnectionForwardsTheSocketRunsTheSessionAndCleansUp() throws {
        let (fake, context) = try laptop()
        fake.ssh.results = [(0, "motd\n/tmp/kcauth-forward.AbC123\n"), (0, ""), (7, ""), (0, ""), (0, ""), (0, "")]
        fake.forwardHost.requests = [ForwardMessage.Request(profile: nil, minValid: 30, idToken: false)]
        #expect(try context.sshForward().run(sshRequest()) == .ended(status: 7))

        let runs = fake.ssh.runs.map(\.arguments)
        #expect(runs.count == 6)
        #expect(runs[0].contains("ControlMaster=yes") && runs[0].suffix(3) == ["-T", "admin@host", RemoteForwardCommands.setUp])
        #expect(RemoteForwardCommands.setUp.hasSuffix("; mktemp -d -t kcauth-forward.XXXXXXXXXX"))
        #expect(!runs[0].contains("-L"), "the control connection gets no forwardings")
        #expect(runs[1].suffix(5) == ["-O", "forward", "-R", "/tmp/kcauth-forward.AbC123/agent.sock:/run/kcauth/forward-1/agent.sock",
                                      "admin@host"])
        #expect(runs[2].suffix(5) == ["-L", "8080:localhost:80", "admin@host", "kcauth", "token"])
        #expect(fake.ssh.runs[2].environment["LC_KCAUTH_FORWARD"] == "/tmp/kcauth-forward.AbC123/agent.sock")
        // The clean-up: over the control connection (it answers -O check), or (it dropped) a new
        // one with the user's options that asks nothing; each step bounded.
        #expect(runs[3].suffix(3) == ["-O", "check", "admin@host"])
        #expect(runs[4].suffix(5) == ["-p", "2222", "-T", "admin@host", "rm -rf -- '/tmp/kcauth-forward.AbC123'"])
        #expect(runs[4].contains("BatchMode=yes") && !runs[4].contains("-L"))
        #expect(runs[5].suffix(3) == ["-O", "exit", "admin@host"])
        // The session's request was answered while it ran; everything kcauth made is gone.
        #expect(fake.forwardHost.listeners.first?.answers.count == 1 && fake.forwardHost.listeners.first?.closed == true)
        #expect(fake.forwardHost.directories.isEmpty && fake.forwardHost.signalsHeld)
    }

    @Test func aForwardAnnouncedHereIsNotPassedOnToTheNextHop() throws {
        let fake = FakeAdapters(config: Self.config, environment: ["LC_KCAUTH_FORWARD": "/tmp/x/agent.sock"])
        fake.ssh.results = [(255, "")]
        #expect(try KCAuthContext(adapters: fake.adapters).sshForward().run(sshRequest()) == .couldNotConnect(status: 255))
        #expect(fake.ssh.runs.allSatisfy { $0.environment["LC_KCAUTH_FORWARD"] == nil })
        #expect(fake.forwardHost.directories.isEmpty)
    }

    @Test func aRemoteHostWithoutMktempOrForwardingEndsTheConnection() throws {
        let (fake, context) = try laptop()
        fake.ssh.results = [(0, "mktemp: command not found\n")]
        #expect(try context.sshForward().run(sshRequest()) == .noRemoteDirectory)
        #expect(fake.ssh.runs.last?.arguments.suffix(3) == ["-O", "exit", "admin@host"])

        let (refusing, refusingContext) = try laptop()
        refusing.ssh.results = [(0, "/tmp/kcauth-forward.x1\n"), (255, "")]
        #expect(try refusingContext.sshForward().run(sshRequest()) == .forwardRefused)
        #expect(refusing.ssh.runs.count == 5, "no session: the remote directory is removed and the connection closed")
        #expect(!SSHForward.isSafeRemoteDirectory("/tmp/kcauth-forward.x; rm -rf ~"))
        #expect(!SSHForward.isSafeRemoteDirectory("/tmp/kcauth-forward.x/../y"))
    }

    @Test func theAgentListsItselfUntilAStopSignal() throws {
        let (fake, context) = try laptop()
        fake.forwardHost.stopAfter = 3
        fake.forwardHost.requests = [ForwardMessage.Request(profile: nil, minValid: 30, idToken: false)]
        var announced: [String] = []
        var live: [ForwardRecord] = []
        try context.forwardAgent().run(profiles: ["default"], scope: nil, socket: nil) {
            announced.append($0)
            live = context.liveForwards()
        }
        #expect(announced == ["/run/kcauth/forward-1/agent.sock"])
        #expect(live.map(\.destination) == ["plain ssh"] && live.first?.profiles == ["default"] && live.first?.pid == 4242)
        #expect(fake.forwardHost.listeners.first?.answers.count == 1)
        #expect(context.liveForwards().isEmpty && fake.forwardHost.listeners.first?.closed == true)
    }

    @Test func aChosenSocketIsMadeAbsoluteAndChecked() throws {
        let (fake, context) = try laptop()
        let agent = context.forwardAgent()
        #expect(try agent.socketPath("agent.sock") == "/work/agent.sock")
        #expect(try agent.socketPath("/home/me/.ssh/agent.sock") == "/home/me/.ssh/agent.sock")
        fake.forwardHost.socketPathProblems["/work/agent.sock"] = .notPrivate("/work")
        #expect(throws: SocketPathProblem.notPrivate("/work")) { try agent.socketPath("agent.sock") }
        var nowhere = fake.adapters
        nowhere.workingDirectory = nil
        #expect(throws: KCAuthError.self) { try KCAuthContext(adapters: nowhere).forwardAgent().socketPath("agent.sock") }
    }

    @Test func theRemoteSideReadsTheLaptopsAnswerAndRefusesAStrangeSocket() throws {
        let remote = FakeAdapters(environment: ["LC_KCAUTH_FORWARD": "/tmp/kcauth-forward.a/agent.sock"])
        let forwarded = KCAuthContext(adapters: remote.adapters).forwardedToken()
        #expect(forwarded.announced)
        let token = IssuedToken(SessionFixtures.state())
        remote.forwardConnector.reply = .answer(Array(ForwardMessage.answer(token, profile: "work", idToken: false).utf8))
        let answer = try forwarded.token(profile: "work", minValid: 30, idToken: false)
        #expect(answer.profile == "work" && answer.token.accessToken == "at-1")
        #expect(remote.forwardConnector.sent.first.flatMap { ForwardMessage.Request(line: Array($0.utf8)) }?.profile == "work")

        remote.forwardConnector.reply = .notTaken
        #expect { try forwarded.token(profile: nil, minValid: 30, idToken: false) } throws: { ($0 as? KCAuthError)?.code == .network }
        remote.forwardConnector.reply = .closed
        #expect { try forwarded.token(profile: nil, minValid: 30, idToken: false) } throws: {
            ($0 as? KCAuthError)?.remedy == .reconnectForward(variable: "LC_KCAUTH_FORWARD")
        }
        #expect(!KCAuthContext(adapters: FakeAdapters().adapters).forwardedToken().announced)
    }

    /// The remote side, over a connector whose socket is in `state`; the warnings it gave.
    func remoteSide(_ state: ForwardSocketState) -> (FakeAdapters, KCAuthContext, Warnings) {
        let remote = FakeAdapters(environment: ["LC_KCAUTH_FORWARD": "/tmp/kcauth-forward.a/agent.sock"])
        remote.forwardConnector.state = state
        let warnings = Warnings()
        var adapters = remote.adapters
        adapters.warn = { warnings.add($0) }
        return (remote, KCAuthContext(adapters: adapters), warnings)
    }

    @Test func aForwardThatIsNotThisHostsIsIgnoredWithOneLine() {
        for state in [ForwardSocketState.absent, .notYours(uid: 1234)] {
            let (remote, context, warnings) = remoteSide(state)
            #expect(!context.forwardedToken().announced && !context.forwardedToken().announced)
            #expect(context.forwardedToken().use == .none)
            #expect(warnings.lines.count == 1 && warnings.lines[0].hasPrefix("ignoring LC_KCAUTH_FORWARD=/tmp/kcauth-forward.a/agent.sock: "))
            #expect(warnings.lines[0].hasSuffix("using this host's own sessions"))
            #expect(remote.forwardConnector.inspected == 1, "looked at once per process")
            #expect(remote.forwardConnector.removed.isEmpty && remote.forwardConnector.sent.isEmpty)
        }
    }

    @Test func aDeadForwardOfTheUsersIsIgnoredThenRemoved() {
        let (remote, context, warnings) = remoteSide(.dead)
        #expect(!context.forwardedToken().announced)
        #expect(remote.forwardConnector.removed == ["/tmp/kcauth-forward.a/agent.sock"])
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("its ssh connection has ended"))
    }

    @Test func aForwardOthersCouldHavePlacedIsRefusedNotIgnored() {
        let (remote, context, warnings) = remoteSide(.unsafe("/tmp can be written by others"))
        let forwarded = context.forwardedToken()
        #expect(forwarded.announced && warnings.lines.isEmpty)
        #expect { try forwarded.token(profile: nil, minValid: 30, idToken: false) } throws: {
            ($0 as? KCAuthError)?.remedy == .reconnectForward(variable: "LC_KCAUTH_FORWARD")
                && ($0 as? KCAuthError)?.message.contains("can be written by others") == true
        }
        #expect(remote.forwardConnector.sent.isEmpty)
    }

    @Test func theLaptopDescribesTheForwardAndTheRemoteSideReadsIt() throws {
        let (fake, context) = try laptop()
        let agent = ForwardAnswers(context: context, host: fake.forwardHost, profiles: ["default", "other"], scope: "openid",
                                   destination: "admin@build")
        let request = try #require(ForwardMessage.Request(line: Array(ForwardMessage.Request.describing.line.utf8)))
        #expect(request.describe && !ForwardMessage.Request.describing.line.contains("min_valid"))
        let line = agent.answer(request)
        #expect(!line.contains("access_token"))
        #expect(fake.forwardHost.logLines.last?.hasSuffix("destination=admin@build profile=default scope=openid answer=description\n") == true)

        let (remote, remoteContext, _) = remoteSide(.live)
        remote.forwardConnector.reply = .answer(Array(line.utf8))
        #expect(try remoteContext.forwardedToken().describe() == ForwardDescription(destination: "admin@build", profiles: ["default", "other"],
                                                                                    scope: "openid"))
        // A laptop too old to describe answers "unreadable request".
        remote.forwardConnector.reply = .answer(Array(ForwardMessage.failure(KCAuthError(.usage, "unreadable request"), profile: nil).utf8))
        #expect { try remoteContext.forwardedToken().describe() } throws: { ($0 as? KCAuthError)?.message.contains("older") == true }
    }

    @Test func whoamiOnTheRemoteSideIsTheLentTokensIdentity() throws {
        let (remote, context, _) = remoteSide(.live)
        var token = IssuedToken(SessionFixtures.state())
        token.accessToken = Secret(.accessToken, SessionFixtures.jwt(#"{"sub":"u-1","preferred_username":"alice","realm_access":{"roles":["dev"]}}"#))
        let description = ForwardDescription(destination: "admin@build", profiles: ["default"], scope: nil).line
        let answer = ForwardMessage.answer(token, profile: "default", idToken: false)
        remote.forwardConnector.reply = .answer(Array(description.utf8))
        let connector = remote.forwardConnector
        // The first exchange is the description, then the token.
        let replies = Replies([description, answer])
        connector.onExchange = { replies.next() }
        let identity = try context.forwardedToken().identity(profile: nil)
        #expect(identity.forward.destination == "admin@build")
        #expect(identity.identity.claims?.preferredUsername == "alice" && identity.identity.realmRoles == ["dev"])
        #expect(identity.identity.profile == "default" && !identity.identity.hasRefreshToken && identity.identity.storage == "forwarded")
    }
}

/// One-line warnings a context gave.
final class Warnings: @unchecked Sendable {
    private let mutex = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { mutex.withLock { stored.append(line) } }
    var lines: [String] { mutex.withLock { stored } }
}

/// Answer lines given out in order, the last one repeating.
final class Replies: @unchecked Sendable {
    private let mutex = NSLock()
    private var lines: [String]
    init(_ lines: [String]) { self.lines = lines }
    func next() -> ForwardReply {
        mutex.withLock { .answer(Array((lines.count > 1 ? lines.removeFirst() : lines[0]).utf8)) }
    }
}
