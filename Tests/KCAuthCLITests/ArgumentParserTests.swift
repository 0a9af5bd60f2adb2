import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthCore
import KCAuthTestSupport

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
        // Global options before the command name mean what they mean after it.
        (["--profile", "kc", "token"], .run(ParsedCommand(name: "token", values: ["profile": "kc"]))),
        (["--profile=kc", "whoami", "-o", "json"], .run(ParsedCommand(name: "whoami", values: ["profile": "kc", "output": "json"]))),
        (["--profile", "a", "token", "--profile", "b"], .run(ParsedCommand(name: "token", values: ["profile": "b"]))),
        (["--profile", "kc", "--", "status"], .run(ParsedCommand(name: "status", values: ["profile": "kc"]))),
        (["--profile", "kc", "token", "--help"], .help(command: "token")),
        (["--profile", "kc", "--help"], .help(command: nil)),
        (["--profile", "kc", "--version"], .version),
        (["--help", "token"], .help(command: nil)),
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
        (["token", "extra"], "unexpected argument 'extra' for `kcauth token`", "did you mean '--profile extra'?"),
        (["login", "-x"], "unknown option '-x' for `kcauth login`", "see `kcauth login --help`"),
        (["help", "tokn"], "unknown command 'tokn'", "did you mean 'token'?"),
        (["help", "a", "b"], "unexpected argument 'b' for `kcauth help`", "see `kcauth help --help`"),
        // Case does not count for a suggestion, and the command is not run.
        (["TOKEN"], "unknown command 'TOKEN'", "did you mean 'token'?"),
        (["Login"], "unknown command 'Login'", "did you mean 'login'?"),
        (["help", "WHOAMI"], "unknown command 'WHOAMI'", "did you mean 'whoami'?"),
        (["token", "--Profile", "x"], "unknown option '--Profile' for `kcauth token`", "did you mean '--profile'?"),
        // oidc-token's `oidc-token ACCOUNT`: a word where --profile would fit.
        (["token", "kc"], "unexpected argument 'kc' for `kcauth token`", "did you mean '--profile kc'?"),
        (["logout", "work", "--everywhere"], "unexpected argument 'work' for `kcauth logout`", "did you mean '--profile work'?"),
        (["token", "--profile", "a", "kc"], "unexpected argument 'kc' for `kcauth token`", "see `kcauth token --help`"),
        (["token", "kc", "--profile=a"], "unexpected argument 'kc' for `kcauth token`", "see `kcauth token --help`"),
        (["--profile", "a", "token", "kc"], "unexpected argument 'kc' for `kcauth token`", "see `kcauth token --help`"),
        (["token", "a/b"], "unexpected argument 'a/b' for `kcauth token`", "see `kcauth token --help`"),
        (["setup-client", "kc"], "unexpected argument 'kc' for `kcauth setup-client`", "see `kcauth setup-client --help`"),
        // Global options: only for a command that takes them, and never without a command.
        (["--profile", "kc", "use"], "`kcauth use` takes no --profile", "did you mean 'kcauth use kc'?"),
        // A command that uses no profile says what it takes, not another command (`setup-client`
        // prints a client from its own options).
        (["--profile", "kc", "setup-client"], "`kcauth setup-client` takes no --profile: it uses no profile",
         "usage: `kcauth setup-client --server URL --realm NAME --client-id ID [flags]`"),
        (["--profile", "kc", "help"], "`kcauth help` takes no --profile: it uses no profile", "usage: `kcauth help [<command>]`"),
        (["lock", "--profile", "kc"], "`kcauth lock` takes no --profile: it uses no profile", "usage: `kcauth lock`"),
        // The same after the command: a person who writes it means to pick that profile.
        (["use", "--profile", "kc"], "`kcauth use` takes no --profile", "did you mean 'kcauth use kc'?"),
        (["use", "--profile=kc"], "`kcauth use` takes no --profile", "did you mean 'kcauth use kc'?"),
        (["setup-client", "--profile", "kc"], "`kcauth setup-client` takes no --profile: it uses no profile",
         "usage: `kcauth setup-client --server URL --realm NAME --client-id ID [flags]`"),
        (["--profile", "kc"], "a command must follow --profile kc", "see `kcauth help`"),
        (["--profile"], "option --profile needs a value (NAME)", nil),
        (["--profle", "kc", "token"], "unknown option '--profle'", "did you mean '--profile'?"),
        (["--profile", "kc", "tokne"], "unknown command 'tokne'", "did you mean 'token'?"),
        // An option that exists nowhere, or only after some command.
        (["-v"], "unknown option '-v'", "did you mean '--version'?"),
        (["-V"], "unknown option '-V'", "did you mean '--version'?"),
        (["-p", "kc", "token"], "unknown option '-p'", "did you mean '--profile'?"),
        (["-x"], "unknown option '-x'", "see `kcauth help`"),
        (["--frobnicate"], "unknown option '--frobnicate'", "see `kcauth help`"),
        (["--issuer", "https://x", "login"], "option '--issuer' goes after the command name", "for example `kcauth login --issuer https://x`"),
        (["-o", "json", "whoami"], "option '-o' goes after the command name", "for example `kcauth whoami --output json`"),
        (["--min-valid", "30"], "option '--min-valid' goes after the command name", "for example `kcauth token --min-valid 30`"),
    ] as [([String], String, String?)])
    func rejects(args: [String], message: String, hint: String?) {
        #expect {
            try ArgumentParser.parse(args)
        } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .usage && e?.message == message && e?.hint == hint
        }
    }

    @Test func aGlobalOptionIsCheckedAsTheCommandChecksItsOwn() throws {
        // The same value as after the command, so the command's own rules apply to it.
        #expect(try ArgumentParser.parse(["--profile", "kc", "token"]) == ArgumentParser.parse(["token", "--profile", "kc"]))
        let globals = CommandTable.topLevelOptions.filter(\.takesValue)
        #expect(globals.map(\.long) == ["profile"])
        for o in globals {
            for c in CommandTable.commands {
                let before = Result { try ArgumentParser.parse(["--\(o.long)", "x", c.name]) }
                #expect((try? before.get()) != nil || c.option(long: o.long) == nil, "kcauth --\(o.long) x \(c.name)")
                if c.option(long: o.long) == nil { #expect(throws: KCAuthError.self) { try before.get() } }
            }
        }
    }

    @Test func aWrongCaseCommandIsNeverRun() {
        let console = RecordingConsole()
        #expect(KCAuthMain.run(arguments: ["TOKEN"], environment: [:], console: console) == 2)
        #expect(console.stderr == "error: unknown command 'TOKEN'; did you mean 'token'?\n" && console.stdout.isEmpty)
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
        let config = try ConfigDocument(parsing: "[p]\nissuer = https://saved/realms/s\nclient_id = saved-client\nscope = email\nport = 8400\n", path: "c")
        let resolver = SettingsResolver(environment: ["KCAUTH_ISSUER": "https://env/realms/e"], config: config, configPath: "c", workingDirectory: "/")
        let fromEnv = try resolver.resolve(SettingsFlags(profile: "p"))
        #expect(fromEnv.issuer == Setting("https://env/realms/e", .environment, origin: .environment("KCAUTH_ISSUER")))
        #expect(fromEnv.clientID == Setting("saved-client", .profile, origin: .file("client_id")))
        #expect(fromEnv.scope.value == "openid email" && fromEnv.port.value == 8400 && fromEnv.timeout == Setting(300, .default))

        let fromFlags = try resolver.resolve(SettingsFlags(profile: "p", server: "https://kc.example/", realm: "demo", clientID: "cli", port: 0))
        #expect(fromFlags.issuer?.value == "https://kc.example/realms/demo" && fromFlags.clientID?.value == "cli")
        #expect(fromFlags.port == Setting(0, .flag, origin: .option("port")))
    }

    @Test(arguments: [
        (["--issuer", "https://a/realms/b", "--server", "https://a"], "give either --issuer or --server with --realm, not both"),
        (["--server", "https://a"], "--server and --realm go together"),
        ([], "no issuer for profile 'p'"),
        (["--issuer", "https://a/realms/b"], "no client id for profile 'p'"),
        (["--issuer", "https://a/realms/b", "--client-id", "c", "--port", "70000"], "--port takes a number from 0 to 65535, not '70000'"),
        (["--issuer", "https://a/realms/b", "--client-id", "c", "--timeout", "0"], "--timeout takes a number of seconds from 1 to 86400, not '0'"),
        (["--issuer", "https://a/realms/b", "--client-id", "c", "--timeout", "0.5"], "--timeout takes a number of seconds from 1 to 86400, not '0.5'"),
        (["--issuer", "https://a/realms/b", "--client-id", "c\n[evil]"], "--client-id contains a control character (such as a newline)"),
    ])
    func loginRejectsIncompleteSettings(args: [String], message: String) {
        let fake = FakeAdapters()
        let console = RecordingConsole()
        let code = KCAuthMain.run(arguments: ["login", "--profile", "p"] + args, services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        #expect(code == 2)
        #expect(console.stderr.hasPrefix("error: " + message), "\(console.stderr)")
        #expect(fake.settings.text.isEmpty && fake.transport.requests.isEmpty, "nothing written, nobody asked")
    }
}
