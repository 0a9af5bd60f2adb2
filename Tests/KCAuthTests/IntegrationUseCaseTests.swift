import Foundation
import Testing
@testable import KCAuth
import KCAuthTestSupport

/// The integration verbs as use cases, in-process over `FakeAdapters`: the git and docker
/// helpers' answers, `exec` and its keep-fresh parent, the kubeconfig merge, and kubectl's
/// automatic sign-in. (The same verbs run as commands with real programs in Tests/Integration.)
@Suite struct IntegrationUseCaseTests {
    static let config = FakeAdapters.profileConfig + "hosts = git.example.test, registry.example.test:5000\n"
        + "[other]\nissuer = \(Fixtures.issuer)\nclient_id = kcauth\nhosts = other.example.test\nusername = bot\n"

    let fake = FakeAdapters(config: IntegrationUseCaseTests.config)

    init() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
    }

    var context: KCAuthContext { KCAuthContext(adapters: fake.adapters) }

    // MARK: git

    @Test func gitGetsTheTokenOfTheProfileThatListsTheHostReadingTheConfigurationOnce() throws {
        fake.standardInput.text = "protocol=https\nhost=git.example.test\n\nignored=after the blank line\n"
        let answer = try #require(try context.gitCredential(option: nil).run(.get))
        #expect(answer.username == "oauth2" && answer.token == "at-1" && !answer.bearer)
        #expect(answer.text.hasPrefix("username=oauth2\npassword=at-1\npassword_expiry_utc="))
        #expect(fake.settings.loads == 1, "the helper routes with the context's configuration, read once")
    }

    @Test func gitAnswersNothingForAHostNoProfileListsOrOverPlainHTTP() throws {
        for request in ["protocol=https\nhost=elsewhere.test\n", "protocol=http\nhost=git.example.test\n",
                        "protocol=https\nhost=other.example.test\n"] {
            fake.standardInput.text = request
            // `default` picked: it does not list other.example.test, and picking never widens.
            #expect(try context.gitCredential(option: "default").run(.get) == nil, "\(request)")
        }
        #expect(fake.keyring.reads == 0, "no token was fetched for a host that gets none")
    }

    @Test func gitTakesABearerCredentialAndTheSecondProfilesUserName() throws {
        try SessionFixtures.store(SessionFixtures.state(accessToken: "at-other"), as: "other", in: fake.keyring)
        fake.standardInput.text = "capability[]=authtype\nprotocol=https\nhost=other.example.test\n"
        let answer = try #require(try context.gitCredential(option: nil).run(.get))
        #expect(answer.token == "at-other" && answer.username == "bot" && answer.bearer)
        fake.standardInput.text = "protocol=https\nhost=other.example.test\nusername=bad\u{1}name\n"
        #expect { try context.gitCredential(option: nil).run(.get) } throws: { ($0 as? KCAuthError)?.code == .usage }
    }

    @Test func gitStoreReadsTheRequestAndKeepsNothing() throws {
        fake.standardInput.text = "protocol=https\nhost=git.example.test\npassword=x\n"
        let writes = fake.keyring.writes.count
        #expect(try context.gitCredential(option: nil).run(.store) == nil)
        #expect(fake.standardInput.reads == 1 && fake.settings.loads == 0 && fake.keyring.writes.count == writes)
    }

    @Test func gitOverAForwardedSessionAsksTheLaptopAndReadsNothingHere() throws {
        let asked = Recorded<(String?, String)>()
        fake.standardInput.text = "protocol=https\nhost=git.example.test\n"
        let helper = context.gitCredential(option: "work", forwarded: { picked, host in
            asked.append((picked, host.description))
            return ForwardedHelperToken(token: IssuedToken(SessionFixtures.state(accessToken: "at-laptop")), username: "laptop-user")
        })
        let answer = try #require(try helper.run(.get))
        #expect(answer.token == "at-laptop" && answer.username == "laptop-user")
        #expect(asked.values.map(\.0) == ["work"] && asked.values.map(\.1) == ["git.example.test"])
        #expect(fake.keyring.reads == 0 && fake.settings.loads == 0)
    }

    // MARK: docker

    @Test func dockerGetsTheTokenForAListedRegistryAndNotFoundOtherwise() throws {
        fake.standardInput.text = "https://registry.example.test:5000/v2/\n"
        guard case .found(let url, let username, let secret) = try context.dockerCredential(option: nil).run(.get) else {
            Issue.record("no answer")
            return
        }
        #expect(url == "https://registry.example.test:5000/v2/" && username == "oauth2" && secret == "at-1")

        fake.standardInput.text = "registry.example.test"  // the listed one has a port: this one is another server
        guard case .notFound(let missing) = try context.dockerCredential(option: nil).run(.get) else {
            Issue.record("answered")
            return
        }
        #expect(missing == .notListed(host: try #require(CredentialHost("registry.example.test"))))
        fake.standardInput.text = "http://registry.example.test:5000"
        guard case .notFound(.plainHTTP) = try context.dockerCredential(option: nil).run(.get) else {
            Issue.record("a token over plain http")
            return
        }
        fake.standardInput.text = "other.example.test"
        guard case .notFound(.notListedByPicked(let profile, _)) = try context.dockerCredential(option: "default").run(.get) else {
            Issue.record("picked profile widened")
            return
        }
        #expect(profile == "default")
    }

    @Test func dockerListsTheRegistriesAndEraseForgetsOnlyTheRuntimeCopy() throws {
        guard case .list(let entries) = try context.dockerCredential(option: nil).run(.list) else {
            Issue.record("no list")
            return
        }
        #expect(entries.map(\.server) == ["git.example.test", "registry.example.test:5000", "other.example.test"])
        #expect(entries.map(\.username) == ["oauth2", "oauth2", "bot"])

        fake.standardInput.text = "registry.example.test:5000\n"
        _ = try context.dockerCredential(option: nil).run(.get)
        #expect(fake.cache.tokens["default"] != nil, "the token's runtime copy")
        guard case .nothing = try context.dockerCredential(option: nil).run(.erase) else {
            Issue.record("erase answered")
            return
        }
        #expect(fake.cache.tokens["default"] == nil && fake.keyring.items["default"] != nil)
    }

    // MARK: exec

    func tokens(_ context: KCAuthContext) throws -> ExecTokens {
        ExecTokens(context: context, profile: try context.resolve(), forwarded: nil)
    }

    @Test func execHandsTheTokensToTheCommandInItsEnvironment() throws {
        let context = self.context
        do {
            try context.exec(try tokens(context)).run(["deploy", "-x"], variables: [ExecVariable(name: "API", value: .access),
                                                                                      ExecVariable(name: "OIDC", value: .id)],
                                                      minValid: 60)
        } catch let failure as CommandStartFailure {
            #expect(failure.status == 127, "the fake finds no command: `env`'s status for that")
        }
        let launched = try #require(fake.launcher.launched.first)
        #expect(launched.arguments == ["deploy", "-x"])
        #expect(launched.environment["API"] == "at-1" && launched.environment["OIDC"] == Fixtures.idToken)
    }

    @Test func execOfACommandThatCannotStartGivesItsStatusAndWithoutASessionStartsNothing() throws {
        fake.launcher.startFailure = CommandStartFailure(KCAuthError(.usage, "cannot run 'x': Permission denied"), status: CommandStartFailure.cannotRun)
        let context = self.context
        #expect { try context.exec(try tokens(context)).run(["./x"], variables: [ExecVariable(name: "T", value: .access)], minValid: 60) }
            throws: { ($0 as? CommandStartFailure)?.status == 126 }

        _ = try fake.keyring.delete(profile: "default")
        fake.cache.remove(profile: "default")  // the first run's runtime copy
        #expect { try context.exec(try tokens(context)).run(["./x"], variables: [ExecVariable(name: "T", value: .access)], minValid: 60) }
            throws: { ($0 as? KCAuthError)?.code == .loginRequired }
        #expect(fake.launcher.launched.count == 1, "no session: the command never started")
    }

    @Test func execOverAForwardedSessionWithoutAnIDTokenSaysSoBeforeTheCommandStarts() throws {
        let context = self.context
        let asked = Recorded<Bool>()
        let forwarded = ExecTokens(context: context, profile: nil, forwarded: { minValid, idToken in
            asked.append(idToken)
            return ("laptop", IssuedToken(SessionFixtures.state(idToken: nil, accessToken: "at-laptop")))
        })
        #expect { try context.exec(forwarded).run(["x"], variables: [ExecVariable(name: "T", value: .id)], minValid: 60) }
            throws: { ($0 as? KCAuthError)?.remedy == .signIn(profile: "laptop") }
        #expect(fake.launcher.launched.isEmpty && asked.values == [true])
        #expect(fake.keyring.reads == 0 && fake.settings.loads == 0, "nothing of this host's is read")
    }

    @Test func keepFreshKeepsTheTokenInAFileForTheCommandAndRemovesItAfter() throws {
        fake.launcher.pollsBeforeExit = 2
        fake.launcher.exitStatus = 3
        fake.launcher.pendingSignals = [15]
        let context = self.context
        let keepFresh = context.keepFresh(try tokens(context))
        let status = try keepFresh.run(["terraform", "apply"], minValid: 60, tokenFile: nil) { _ in Issue.record("no renewal was due") }
        #expect(status == 3 && keepFresh.end(like: status) == 3 && fake.launcher.endedBySignal == nil)
        let launched = try #require(fake.launcher.launched.first)
        let path = try #require(launched.environment[KeepFresh.variable])
        #expect(path.hasSuffix("/token") && fake.tokenFiles.writes.map(\.path) == [path] && fake.tokenFiles.writes.map(\.text) == ["at-1"])
        #expect(fake.tokenFiles.files.isEmpty && fake.tokenFiles.directories.isEmpty, "the file and its directory are gone")
        #expect(fake.launcher.sentSignals == [15], "a signal sent to kcauth is passed on")
        #expect(fake.sleeper.sleeps == [0.1, 0.1])
    }

    @Test func keepFreshEndsAsTheCommandEndedByASignal() throws {
        fake.launcher.exitStatus = 128 + 15
        let context = self.context
        let keepFresh = context.keepFresh(try tokens(context))
        let status = try keepFresh.run(["x"], minValid: 60, tokenFile: "/tmp/given") { _ in }
        _ = keepFresh.end(like: status)
        #expect(fake.launcher.endedBySignal == 15 && fake.tokenFiles.writes.map(\.path) == ["/tmp/given"])
        #expect(fake.tokenFiles.directories.isEmpty, "a given path gets no private directory")
    }

    @Test func keepFreshRefusesATokenFileThatExistsBeforeAnythingStartsAndSweepsLeftovers() throws {
        fake.tokenFiles.existing = ["/home/u/.token"]
        let context = self.context
        let keepFresh = context.keepFresh(try tokens(context))
        #expect { try keepFresh.run(["x"], minValid: 60, tokenFile: "/home/u/.token") { _ in } } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .usage && e?.message.hasPrefix("/home/u/.token exists; kcauth keeps the token only in a new file") == true
        }
        #expect(fake.launcher.launched.isEmpty && fake.tokenFiles.writes.isEmpty && fake.tokenFiles.existing == ["/home/u/.token"])
        #expect(fake.tokenFiles.leftoverSweeps == 1, "the leftovers of killed runs are looked for on every run")
    }

    // MARK: kubeconfig

    static let entry = KubeconfigEntry(profile: "work", cluster: "prod", args: ["token", "work"])

    @Test func theMergeAddsTheEntriesToAnExistingKubeconfigAndKeepsTheOldOne() throws {
        let old = "apiVersion: v1\nclusters:\n- cluster:\n    server: https://k8s.test\n  name: prod\nkind: Config\nusers:\n- name: alice\n  user:\n    token: abc\n"
        fake.kubeconfigFiles.files["/home/u/.kube/config"] = old
        #expect(try context.kubeconfigMerge().run(Self.entry, into: "/home/u/.kube/config"))
        let merged = try #require(fake.kubeconfigFiles.files["/home/u/.kube/config"])
        #expect(merged.contains("- name: alice\n  user:\n    token: abc\n- name: kcauth-work\n"))
        #expect(merged.contains("contexts:\n- context:\n    cluster: prod\n    user: kcauth-work\n  name: prod-work\n"))
        #expect(fake.kubeconfigFiles.files["/home/u/.kube/config.bak"] == old)
        #expect(!(try context.kubeconfigMerge().run(Self.userOnly, into: "/new")), "no file before")
    }

    @Test func aClusterTheFileLacksIsAnErrorNamingItsClustersAndTheFileIsLeft() throws {
        let old = "apiVersion: v1\nclusters:\n- cluster:\n    server: https://a.test\n  name: staging\n- name: dev\n  cluster:\n    server: https://b.test\n"
        fake.kubeconfigFiles.files["/k"] = old
        #expect { try context.kubeconfigMerge().run(Self.entry, into: "/k") } throws: {
            let e = $0 as? KCAuthError
            return e?.code == .usage && e?.remedy == .addClusterFirst
                && e?.message == "there is no cluster 'prod' in /k: its clusters are 'staging', 'dev'"
        }
        #expect(fake.kubeconfigFiles.files["/k"] == old && fake.kubeconfigFiles.files["/k.bak"] == nil)
        #expect { try context.kubeconfigMerge().run(Self.entry, into: "/none") } throws: {
            ($0 as? KCAuthError)?.message == "there is no cluster 'prod' in /none: it has no clusters"
        }
        fake.kubeconfigFiles.files["/k.json"] = #"{"clusters":[{"name":"staging","cluster":{}}]}"#
        #expect { try context.kubeconfigMerge().run(Self.entry, into: "/k.json") } throws: {
            ($0 as? KCAuthError)?.message == "there is no cluster 'prod' in /k.json: its clusters are 'staging'"
        }
        #expect(try context.kubeconfigMerge().run(Self.userOnly, into: "/k"), "without a cluster, the user alone")
    }

    static let userOnly = KubeconfigEntry(profile: "work", args: ["token", "work"])

    @Test func aJSONKubeconfigStaysJSONAndOneKcauthCannotEditIsLeftAlone() throws {
        fake.kubeconfigFiles.files["/k.json"] = #"{"kind":"Config","clusters":[{"name":"prod"}],"users":[{"name":"alice","user":{"token":"abc"}}]}"#
        #expect(try context.kubeconfigMerge().run(Self.entry, into: "/k.json"))
        let text = try #require(fake.kubeconfigFiles.files["/k.json"])
        let doc = try #require(JSONValue.parse(Array(text.utf8)))
        #expect(doc["users"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["alice", "kcauth-work"])
        #expect(doc["contexts"]?.arrayValue?.first?["name"]?.stringValue == "prod-work")

        let flow = "users: [{name: a}]\n"
        fake.kubeconfigFiles.files["/flow"] = flow
        #expect { try context.kubeconfigMerge().run(Self.userOnly, into: "/flow") } throws: { ($0 as? KCAuthError)?.remedy == .addEntryByHand }
        #expect(fake.kubeconfigFiles.files["/flow"] == flow && fake.kubeconfigFiles.files["/flow.bak"] == nil)
    }

    // MARK: kubectl

    static let interactive = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":true}}"#

    func kubectlFake(_ info: String) -> FakeAdapters {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig, environment: ["KUBERNETES_EXEC_INFO": info, "DISPLAY": ":0"])
        fake.serveProvider()
        fake.browserSignsIn()
        return fake
    }

    @Test func kubectlWithAPersonAndNoSessionSignsInFirstAndGetsTheNewToken() throws {
        let fake = kubectlFake(Self.interactive)
        let context = KCAuthContext(adapters: fake.adapters)
        let events = Recorded<Login.Event>()
        let offered = Recorded<String>()
        let answer = try context.tokenOrSignIn(try context.resolve(), kubectl: true)
            .run(TokenProvider.Request(idToken: true), caller: context.signInCaller(stderrIsTerminal: true, credentialHelper: false),
                 canAsk: false, offerEncryptedStore: { offered.append($0.name); return false }, notify: { events.append($0) })
        #expect(answer.token.accessToken == "at-1" && answer.token.idToken != nil)
        #expect(offered.values == ["default"] && fake.opener.opened.count == 1)
        #expect(fake.keyring.items["default"] != nil, "the session is stored for kubectl's next call")
        guard case .signingInForKubectl? = events.values.first else {
            Issue.record("\(events.values)")
            return
        }
        #expect(events.values.contains { if case .flowChosen(let choice, true) = $0 { choice.flow == .browser } else { false } })
        guard case .signedIn? = answer.signedIn else {
            Issue.record("not signed in: \(String(describing: answer.signedIn))")
            return
        }
    }

    @Test func kubectlWithoutAPersonOrInBatchModeEndsWithTheSignInError() throws {
        let batch = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}"#
        for (info, person, kubectl) in [(Self.interactive, false, true), (batch, true, true), (Self.interactive, true, false)] {
            let fake = kubectlFake(info)
            let context = KCAuthContext(adapters: fake.adapters)
            #expect {
                try context.tokenOrSignIn(try context.resolve(), kubectl: kubectl)
                    .run(TokenProvider.Request(), caller: context.signInCaller(stderrIsTerminal: person, credentialHelper: false),
                         canAsk: false, notify: { event in Issue.record("\(event)") })
            } throws: { ($0 as? KCAuthError)?.remedy == .signIn(profile: "default") }
            #expect(fake.opener.opened.isEmpty && fake.transport.requests.isEmpty)
        }
    }

    @Test func aVersionKubectlCannotTakeIsRefusedBeforeTheKeyring() throws {
        let fake = kubectlFake(#"{"apiVersion":"client.authentication.k8s.io/v2"}"#)
        let context = KCAuthContext(adapters: fake.adapters)
        #expect {
            try context.tokenOrSignIn(try context.resolve(), kubectl: true)
                .run(TokenProvider.Request(), caller: context.signInCaller(stderrIsTerminal: true, credentialHelper: false),
                     canAsk: false, notify: { _ in })
        } throws: { ($0 as? KCAuthError)?.code == .usage }
        #expect(fake.keyring.reads == 0)
    }
}

/// Values a `@Sendable` callback records.
final class Recorded<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [T] = []
    func append(_ value: T) { lock.withLock { list.append(value) } }
    var values: [T] { lock.withLock { list } }
}
