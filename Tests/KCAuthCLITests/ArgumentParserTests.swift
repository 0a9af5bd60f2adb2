import Testing
@testable import KCAuthCLI
import KCAuthCore

/// argv → Invocation, as a table.
@Suite struct ArgumentParserTests {
    @Test(arguments: [
        ([], Invocation.help(command: nil)),
        (["--help"], .help(command: nil)),
        (["-h"], .help(command: nil)),
        (["--version"], .version),
        (["help"], .help(command: nil)),
        (["help", "login"], .help(command: "login")),
        (["token", "--help"], .help(command: "token")),
        (["login", "-h", "--issuer", "x"], .help(command: "login")),
        (["token"], .run(ParsedCommand(name: "token"))),
        (["token", "--profile", "work"], .run(ParsedCommand(name: "token", values: ["profile": "work"]))),
        (["token", "--profile=work"], .run(ParsedCommand(name: "token", values: ["profile": "work"]))),
        (["token", "--profile=a=b"], .run(ParsedCommand(name: "token", values: ["profile": "a=b"]))),
        (["token", "--profile", "a", "--profile", "b"], .run(ParsedCommand(name: "token", values: ["profile": "b"], repeated: ["profile": ["a", "b"]]))),
        (["login", "--issuer", "https://x/realms/y", "--client-id", "c", "--no-browser", "--port", "8400"],
         .run(ParsedCommand(name: "login", values: ["issuer": "https://x/realms/y", "client-id": "c", "port": "8400"], flags: ["no-browser"]))),
        (["login", "--scope", "--odd-but-a-value"], .run(ParsedCommand(name: "login", values: ["scope": "--odd-but-a-value"]))),
        (["help", "--", "token"], .help(command: "token")),
    ] as [([String], Invocation)])
    func parses(args: [String], expected: Invocation) throws {
        #expect(try ArgumentParser.parse(args) == expected)
    }

    @Test(arguments: [
        (["tokne"], "unknown command 'tokne'", "did you mean 'token'?"),
        (["lgin"], "unknown command 'lgin'", "did you mean 'login'?"),
        (["frobnicate"], "unknown command 'frobnicate'", "see `kcauth help`"),
        (["--verison"], "unknown option '--verison'", "did you mean '--version'?"),
        (["login", "--isuer", "x"], "unknown option '--isuer' for `kcauth login`", "did you mean '--issuer'?"),
        (["login", "--client"], "unknown option '--client' for `kcauth login`", "did you mean '--client-id'?"),
        (["token", "--profile"], "option --profile needs a value (NAME)", nil),
        (["login", "--no-browser=yes"], "option --no-browser takes no value", nil),
        (["token", "extra"], "unexpected argument 'extra' for `kcauth token`", "see `kcauth token --help`"),
        (["login", "-x"], "unknown option '-x' for `kcauth login`", "see `kcauth login --help`"),
        (["help", "tokn"], "unknown command 'tokn'", "did you mean 'token'?"),
        (["help", "a", "b"], "unexpected argument 'b' for `kcauth help`", "see `kcauth help --help`"),
    ] as [([String], String, String?)])
    func rejects(args: [String], message: String, hint: String?) {
        #expect {
            try ArgumentParser.parse(args)
        } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .usage && e?.message == message && e?.hint == hint
        }
    }

    @Test func usageErrorsExitWithStatus2() {
        let console = RecordingConsole()
        #expect(KCAuthMain.run(arguments: ["tokne"], environment: [:], console: console) == 2)
        #expect(console.stderr == "error: unknown command 'tokne'; did you mean 'token'?\n")
        #expect(console.stdout.isEmpty)
    }

    @Test func versionGoesToStdout() {
        let console = RecordingConsole()
        #expect(KCAuthMain.run(arguments: ["--version"], environment: [:], console: console) == 0)
        #expect(console.stdout == "kcauth \(KCAuthMain.version)\n" && console.stderr.isEmpty)
    }

    @Test func loginResolvesFlagsOverEnvironmentOverSavedProfile() throws {
        let saved = ProfileSettings(issuer: "https://saved/realms/s", clientID: "saved-client", scope: "email", port: 8400)
        let env = ["KCAUTH_ISSUER": "https://env/realms/e"]
        let fromEnv = try LoginCommand.resolve(ParsedCommand(name: "login"), saved: saved, environment: env, profile: "p")
        #expect(fromEnv.issuer == "https://env/realms/e" && fromEnv.clientID == "saved-client")
        #expect(fromEnv.scope == "openid email" && fromEnv.port == 8400 && fromEnv.timeout == 300 && fromEnv.openBrowser)

        let fromFlags = try LoginCommand.resolve(
            ParsedCommand(name: "login", values: ["server": "https://kc.example/", "realm": "demo", "client-id": "cli", "port": "0"], flags: ["no-browser"]),
            saved: saved, environment: env, profile: "p")
        #expect(fromFlags.issuer == "https://kc.example/realms/demo" && fromFlags.clientID == "cli" && fromFlags.port == 0 && !fromFlags.openBrowser)
    }

    @Test(arguments: [
        (["issuer": "https://a/realms/b", "server": "https://a"], "give either --issuer or --server with --realm, not both"),
        (["server": "https://a"], "--server and --realm go together"),
        ([:], "no issuer for profile 'p'"),
        (["issuer": "https://a/realms/b"], "no client id for profile 'p'"),
        (["issuer": "https://a/realms/b", "client-id": "c", "port": "70000"], "--port takes a number from 0 to 65535, not '70000'"),
        (["issuer": "https://a/realms/b", "client-id": "c", "timeout": "0"], "--timeout takes a number of seconds from 1 to 86400, not '0'"),
    ])
    func loginRejectsIncompleteSettings(values: [String: String], message: String) {
        #expect {
            try LoginCommand.resolve(ParsedCommand(name: "login", values: values), saved: ProfileSettings(), environment: [:], profile: "p")
        } throws: { ($0 as? KCAuthError)?.message == message }
    }
}

/// A console double that records what a command wrote where.
final class RecordingConsole: Console, @unchecked Sendable {
    var stdout = ""
    var stderr = ""
    var stderrIsTTY: Bool { false }
    func out(_ text: String) { stdout += text }
    func err(_ text: String) { stderr += text }
}
