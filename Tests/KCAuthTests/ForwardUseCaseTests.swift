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

    @Test func aConnectionForwardsTheSocketRunsTheSessionAndCleansUp() throws {
        let (fake, context) = try laptop()
        fake.ssh.results = [(0, "motd\n/tmp/kcauth-forward.AbC123\n"), (0, ""), (7, ""), (0, ""), (0, "")]
        fake.forwardHost.requests = [ForwardMessage.Request(profile: nil, minValid: 30, idToken: false)]
        #expect(try context.sshForward().run(sshRequest()) == .ended(status: 7))

        let runs = fake.ssh.runs.map(\.arguments)
        #expect(runs.count == 5)
        #expect(runs[0].contains("ControlMaster=yes") && runs[0].suffix(3) == ["-T", "admin@host", "mktemp -d -t kcauth-forward.XXXXXXXXXX"])
        #expect(!runs[0].contains("-L"), "the control connection gets no forwardings")
        #expect(runs[1].suffix(5) == ["-O", "forward", "-R", "/tmp/kcauth-forward.AbC123/agent.sock:/run/kcauth/forward-1/agent.sock",
                                      "admin@host"])
        #expect(runs[2].suffix(5) == ["-L", "8080:localhost:80", "admin@host", "kcauth", "token"])
        #expect(fake.ssh.runs[2].environment["LC_KCAUTH_FORWARD"] == "/tmp/kcauth-forward.AbC123/agent.sock")
        #expect(runs[3].suffix(3) == ["-T", "admin@host", "rm -rf -- '/tmp/kcauth-forward.AbC123'"])
        #expect(runs[4].suffix(3) == ["-O", "exit", "admin@host"])
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
        #expect(refusing.ssh.runs.count == 4, "no session: the remote directory is removed and the connection closed")
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
        remote.forwardConnector.refusalText = "/tmp/kcauth-forward.a can be written by others"
        #expect { try forwarded.token(profile: nil, minValid: 30, idToken: false) } throws: {
            ($0 as? KCAuthError)?.remedy == .reconnectForward(variable: "LC_KCAUTH_FORWARD")
        }
        #expect(!KCAuthContext(adapters: FakeAdapters().adapters).forwardedToken().announced)
    }
}
