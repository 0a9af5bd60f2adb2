import Foundation
import Testing
@testable import KCAuthCLI
import KCAuthCore
import KCAuthSystem

/// The composition root's storage choice (issue 5), `http(for:)`'s CA file (issue 6), and
/// `setup-client` run in-process (issue 8).
@Suite struct StorageSelectionTests {
    /// A HOME and XDG_CONFIG_HOME of its own, removed afterwards.
    final class Home {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("kcauth-cli-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var environment: [String: String] { ["HOME": path, "XDG_CONFIG_HOME": path + "/config"] }
        func config(_ text: String) throws {
            try FileManager.default.createDirectory(atPath: path + "/config/kcauth", withIntermediateDirectories: true)
            try text.write(toFile: path + "/config/kcauth/config", atomically: true, encoding: .utf8)
        }
    }

    func services(_ env: [String: String]) -> Services { Services(environment: env, console: RecordingConsole()) }

    @Test func theKeyringIsTheDefault() throws {
        let home = try Home()
        #expect(try services(home.environment).context.store(for: "default").name == "keyring")
    }

    @Test func theProfileSettingIsSticky() throws {
        let home = try Home()
        try home.config("[work]\nstorage = file\n")
        let s = services(home.environment)
        let store = try s.context.store(for: "work")
        #expect(store.name == "file")
        #expect((store as? FileSecretStore)?.directory == home.path + "/.local/state/kcauth")
        #expect(try s.context.store(for: "default").name == "keyring", "per profile")
    }

    @Test func theEnvironmentWinsOverTheProfile() throws {
        let home = try Home()
        try home.config("[work]\nstorage = file\n")
        var env = home.environment
        env["KCAUTH_STORAGE"] = "keyring"
        #expect(try services(env).context.store(for: "work").name == "keyring")
        env["KCAUTH_STORAGE"] = "memory"
        #expect(try services(env).context.store(for: "work").name == "memory")
        #expect(try services(env).context.storageKind(for: "work", option: "file") == .file, "login's --storage wins over both")
        env["KCAUTH_STORAGE"] = "plaintext"
        let error = try #require(throws: KCAuthError.self) { try services(env).context.store(for: "work") }
        #expect(error.code == .usage && error.message.hasPrefix("$KCAUTH_STORAGE: 'plaintext'"))
    }

    @Test func loginMovesAProfileOnlyBetweenPersistentStores() throws {
        let home = try Home()
        let s = services(home.environment)
        let command = { (kind: String) in ParsedCommand(name: "login", values: ["storage": kind]) }
        let toFile = try LoginStorage(command("file"), s, profile: "p", saved: ProfileSettings())
        #expect((toFile.store as? MigratingSecretStore)?.previous.name == "keyring")
        #expect(toFile.setting == .file && toFile.savesSettings)
        let stayOnFile = try LoginStorage(command("file"), s, profile: "p", saved: ProfileSettings(storage: .file))
        #expect(stayOnFile.store is FileSecretStore, "a profile already on file does not touch the keyring")
        let toKeyring = try LoginStorage(command("keyring"), s, profile: "p", saved: ProfileSettings(storage: .file))
        #expect((toKeyring.store as? MigratingSecretStore)?.previous.name == "file")
        #expect(toKeyring.setting == nil)
        let memory = try LoginStorage(command("memory"), s, profile: "p", saved: ProfileSettings(storage: .file))
        #expect(memory.store is MemorySecretStore && !memory.savesSettings)
        let sticky = try LoginStorage(ParsedCommand(name: "login"), s, profile: "p", saved: ProfileSettings(storage: .file))
        #expect(sticky.kind == .file)
    }

    @Test func memoryLoginPrintsTheTokenOnceOrSaysNothingWasKept() throws {
        let home = try Home()
        let s = services(home.environment)
        let endpoints = ProviderEndpoints(ProviderMetadata(issuer: "https://i", authorizationEndpoint: "https://i/a", tokenEndpoint: "https://i/t", jwksURI: "https://i/j"))
        let state = AuthState(issuer: "https://i", clientID: "c", tokens: TokenResponse(accessToken: "AT", tokenType: "Bearer", expiresIn: 60),
                              requestedScope: "openid", endpoints: endpoints, now: 1_800_000_000)
        for (format, expected) in [("raw", "AT\n"),
                                   ("json", #"{"access_token":"AT","token_type":"Bearer","expires_at":"2027-01-15T08:01:00Z","scope":"openid","issuer":"https://i","profile":"p"}"# + "\n")] {
            let console = RecordingConsole()
            try LoginStorage(ParsedCommand(name: "login", values: ["storage": "memory", "output": format]), s, profile: "p", saved: ProfileSettings())
                .deliver(state, profile: "p", console: console)
            #expect(console.stdout == expected)
            #expect(console.stderr.isEmpty)
        }
        let console = RecordingConsole()
        try LoginStorage(ParsedCommand(name: "login", values: ["storage": "memory"]), s, profile: "p", saved: ProfileSettings())
            .deliver(state, profile: "p", console: console)
        #expect(console.stdout.isEmpty)
        #expect(console.stderr.hasPrefix("Nothing was kept (--storage memory)"))
    }

    @Test func httpForAProfileTrustsItsCAFile() throws {
        let home = try Home()
        try home.config("[work]\nca_file = /etc/work-ca.pem\n")
        var env = home.environment
        #expect(try services(env).context.caFile(for: "work") == "/etc/work-ca.pem")
        #expect(try services(env).context.caFile(for: "default") == nil)
        env["KCAUTH_CA_FILE"] = "/env/ca.pem"
        #expect(try services(env).context.caFile(for: "work") == "/env/ca.pem")
    }
}

@Suite struct SetupClientCommandTests {
    func run(_ args: [String]) -> (Int32, RecordingConsole) {
        let console = RecordingConsole()
        return (KCAuthMain.run(arguments: ["setup-client"] + args, environment: [:], console: console), console)
    }

    @Test func jsonAloneIsOnlyJSON() throws {
        let (status, console) = run(["--client-id", "cli", "-o", "json"])
        #expect(status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(console.stdout.utf8)) as? [String: Any]
        #expect(object?["clientId"] as? String == "cli")
        #expect(console.stderr.isEmpty)
    }

    @Test func theDefaultShowsBothAndTheLoginToRunNext() {
        let (status, console) = run(["--server", "https://sso.example.com/", "--realm", "demo", "--client-id", "cli"])
        #expect(status == 0)
        #expect(console.stdout.contains("\"pkce.code.challenge.method\": \"S256\""))
        #expect(console.stdout.contains("kcadm.sh create clients -r 'demo' -f - <<'KCAUTH_CLIENT'"))
        #expect(console.stdout.contains("kcauth login --issuer https://sso.example.com/realms/demo --client-id 'cli'"))
    }

    @Test(arguments: [
        (["--server", "https://s", "--realm", "r"], "setup-client needs --client-id ID"),
        (["--client-id", "c"], "setup-client needs --server URL and --realm NAME"),
        (["--client-id", "c", "--server", "http://sso.example.com", "--realm", "r", "-o", "kcadm"],
         "refusing plain-http issuer http://sso.example.com/realms/r: tokens must travel over https"),
        (["--client-id", "c", "-o", "yaml"], "invalid value 'yaml' for -o: use one of json, kcadm"),
    ])
    func usageErrors(args: [String], message: String) {
        let (status, console) = run(args)
        #expect(status == 2)
        #expect(console.stderr.hasPrefix("error: " + message), "\(console.stderr)")
        #expect(console.stdout.isEmpty)
    }
}
