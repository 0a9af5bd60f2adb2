import Foundation
import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// The integration commands run in-process as `main` runs them, over `FakeAdapters`: what they
/// print for git, docker, exec, kubeconfig and kubectl (the words; the use cases have their own
/// tests in KCAuthTests).
@Suite struct IntegrationCommandsInProcessTests {
    let fake = FakeAdapters(config: FakeAdapters.profileConfig + "hosts = git.example.test\n")

    init() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
    }

    func run(_ args: [String], tty: Bool = false) -> (code: Int32, out: String, err: String) {
        let console = RecordingConsole(tty: tty)
        let code = KCAuthMain.run(arguments: args, services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        return (code, console.stdout, console.stderr)
    }

    @Test func gitCredentialPrintsTheAnswerForAListedHostAndNothingElse() {
        fake.standardInput.text = "protocol=https\nhost=git.example.test\n\n"
        let r = run(["git-credential", "get"])
        #expect(r.code == 0 && r.err.isEmpty)
        #expect(r.out.hasPrefix("username=oauth2\npassword=at-1\npassword_expiry_utc="))
        fake.standardInput.text = "protocol=https\nhost=elsewhere.test\n\n"
        #expect(run(["git-credential", "get"]) == (0, "", ""))
        #expect(run(["git-credential", "capability"]) == (0, "", ""), "an action git may add later is ignored")
        #expect(run(["git-credential"]).code == 2)
    }

    @Test func dockerCredentialSaysNotFoundAsDockerExpectsWithTheReasonOnStderr() {
        fake.standardInput.text = "registry.example.test\n"
        let r = run(["docker-credential", "get"])
        #expect(r.code == 1 && r.out == "credentials not found in native keychain\n")
        #expect(r.err.hasPrefix("error: no kcauth profile lists 'registry.example.test' in its hosts setting; "))
        let picked = run(["docker-credential", "get", "--profile", "default"])
        #expect(picked.err.hasPrefix("error: profile 'default' does not list 'registry.example.test' in its hosts setting; "))
        fake.standardInput.text = "http://git.example.test\n"
        #expect(run(["docker-credential", "get"]).err.hasPrefix("error: kcauth sends a token over http only to 127.0.0.1 or ::1, not to 'git.example.test'; "))
        fake.standardInput.text = "git.example.test"
        #expect(run(["docker-credential", "get"]).out == #"{"ServerURL":"git.example.test","Username":"oauth2","Secret":"at-1"}"# + "\n")
        #expect(run(["docker-credential", "list"]).out == #"{"git.example.test":"oauth2"}"# + "\n")
        let unknown = run(["docker-credential", "frobnicate"])
        #expect(unknown.code == 2 && unknown.err.hasPrefix("error: unknown docker credential action 'frobnicate'; use get, list, store or erase"))
    }

    @Test func aHelperThatFindsNoSessionEndsWithSignInAndTheDesktopReminder() {
        fake.keyring.items["default"] = nil
        fake.standardInput.text = "protocol=https\nhost=git.example.test\n\n"
        let r = run(["git-credential", "get"], tty: true)
        #expect(r.code == 4 && r.out.isEmpty && r.err.hasPrefix("error: not logged in (profile 'default'"))
        #expect(fake.reminder.profiles == ["default"], "a helper never signs in itself, even with a terminal")
        #expect(run(["token"], tty: true).code == 4)
        #expect(fake.reminder.profiles == ["default"], "a person at the terminal gets the error line only")
    }

    @Test func execOfAMissingCommandExits127WithTheLauncherReason() {
        let r = run(["exec", "--env", "API", "--", "no-such-tool"])
        #expect(r.code == 127 && r.out.isEmpty)
        #expect(r.err == "error: cannot run 'no-such-tool': No such file or directory; see `kcauth help`\n")
        #expect(fake.launcher.launched.first?.environment["API"] == "at-1")
        let bad = run(["exec", "--env", "PATH", "--", "tool"])
        #expect(bad.code == 2 && bad.err.contains("--env PATH: kcauth does not put a token in a variable that changes how COMMAND runs"))
        #expect(fake.launcher.launched.count == 1, "a refused --env starts nothing")
    }

    @Test func keepFreshPassesTheStatusOnAndSaysWhenTheCommandCannotStart() {
        fake.launcher.exitStatus = 3
        let r = run(["exec", "--keep-fresh", "--", "tool"])
        #expect(r.code == 3 && r.err.isEmpty && fake.tokenFiles.files.isEmpty)
        fake.launcher.startFailure = CommandStartFailure(KCAuthError(.usage, "cannot start tool"), status: 126)
        #expect(run(["exec", "--keep-fresh", "--", "tool"]) == (126, "", "error: cannot run 'tool'\n"))
    }

    @Test func kubeconfigMergeSaysWhatItWroteAndTheEntryRunsTheTokenCommand() {
        fake.kubeconfigFiles.files["/k"] = "apiVersion: v1\nclusters:\n- name: prod\n  cluster:\n    server: https://k8s.test\nkind: Config\n"
        let r = run(["kubeconfig", "--cluster", "prod", "--merge", "/k"])
        #expect(r.code == 0 && r.out.isEmpty)
        #expect(r.err == "Wrote user 'kcauth-default' and context 'prod-default' to /k (previous file in /k.bak).\n")
        #expect(fake.kubeconfigFiles.files["/k"]?.contains("      args:\n      - token\n      - --profile\n      - default\n      - --id-token\n      - -o\n      - exec-credential\n") == true)
        fake.kubeconfigFiles.files["/flow"] = "users: [{name: a}]\n"
        let refused = run(["kubeconfig", "--merge", "/flow"])
        #expect(refused.code == 1 && refused.err.hasSuffix("; add the entry printed by `kcauth kubeconfig` by hand\n"))
        #expect(KubeconfigCommand.tokenArguments(profile: "w", accessToken: true) == ["token", "--profile", "w", "-o", "exec-credential"])
    }

    @Test func kubectlWithAPersonSignsInOnStderrAndPrintsTheExecCredential() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig, environment: [
            "KUBERNETES_EXEC_INFO": #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":true}}"#,
            "DISPLAY": ":0",
        ])
        fake.serveProvider()
        fake.browserSignsIn()
        let console = RecordingConsole(tty: true)
        let code = KCAuthMain.run(arguments: ["token", "--id-token", "-o", "exec-credential"],
                                  services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        #expect(code == 0, "\(console.stderr)")
        #expect(console.stderr.hasPrefix("kcauth: kubectl needs a token for profile 'default': signing in.\n"))
        #expect(console.stderr.contains("Logged in to \(Fixtures.issuer) as alice (profile 'default').\n"))
        let credential = try #require(JSONValue.parse(Array(console.stdout.utf8)))
        #expect(credential["apiVersion"]?.stringValue == "client.authentication.k8s.io/v1beta1")
        #expect(credential["status"]?["token"]?.stringValue == Fixtures.idToken)
    }

    @Test func envSpecsNameAVariableAndWhichToken() throws {
        #expect(try ExecCommand.variable(parsing: "API_TOKEN") == ExecVariable(name: "API_TOKEN", value: .access))
        #expect(try ExecCommand.variable(parsing: "_x1=id") == ExecVariable(name: "_x1", value: .id))
        for bad in ["", "1A", "A-B", "A=", "A=refresh", "Ä"] {
            #expect(throws: KCAuthError.self, "\(bad)") { try ExecCommand.variable(parsing: bad) }
        }
        for name in ["PATH", "PATH=id", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "BASH_ENV", "IFS"] {
            #expect(throws: KCAuthError.self, "\(name)") { try ExecCommand.variable(parsing: name) }
        }
        #expect(try ExecCommand.variable(parsing: "MY_PATH").name == "MY_PATH", "only the exact names and the LD_ family")
    }
}
