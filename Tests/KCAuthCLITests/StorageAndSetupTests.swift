import Foundation
import Testing
@testable import KCAuthCLI
import KCAuthCore
import KCAuthSystem
import KCAuthTestSupport

/// The composition root's storage choice (never plaintext unless named), `http(for:)`'s CA
/// file, and `setup-client` run in-process.
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

    func store(_ env: [String: String], _ profile: String, storage flag: StorageKind? = nil) throws -> any SecretStore {
        let s = services(env)
        return s.context.store(for: try s.context.resolve(SettingsFlags(profile: profile, storage: flag)))
    }

    @Test func theKeyringIsTheDefault() throws {
        let home = try Home()
        #expect(try store(home.environment, "default").name == "keyring")
    }

    @Test func theProfileSettingIsSticky() throws {
        let home = try Home()
        try home.config("[work]\nstorage = file\n")
        let work = try store(home.environment, "work")
        #expect(work.name == "file")
        #expect((services(home.environment).context.store(.file) as? FileSecretStore)?.directory == home.path + "/.local/state/kcauth")
        #expect(try store(home.environment, "default").name == "keyring", "per profile")
    }

    @Test func theEnvironmentWinsOverTheProfile() throws {
        let home = try Home()
        try home.config("[work]\nstorage = file\n")
        var env = home.environment
        env["KCAUTH_STORAGE"] = "keyring"
        #expect(try store(env, "work").name == "keyring")
        env["KCAUTH_STORAGE"] = "memory"
        #expect(try store(env, "work").name == "memory")
        #expect(try store(env, "work", storage: .file).name == "file", "login's --storage wins over both")
        env["KCAUTH_STORAGE"] = "plaintext"
        let error = try #require(throws: KCAuthError.self) { try store(env, "work") }
        #expect(error.code == .usage && error.message.hasPrefix("$KCAUTH_STORAGE: 'plaintext'"))
    }

    @Test func theCAFileIsFlagThenEnvironmentThenProfile() throws {
        let home = try Home()
        try home.config("[work]\nca_file = /etc/work-ca.pem\n")
        var env = home.environment
        let context = services(env).context
        #expect(try context.resolve(SettingsFlags(profile: "work")).caFile == Setting("/etc/work-ca.pem", .profile, origin: .file("ca_file")))
        #expect(try context.resolve(SettingsFlags(profile: "default")).caFile == nil)
        env["KCAUTH_CA_FILE"] = "/env/ca.pem"
        #expect(try services(env).context.resolve(SettingsFlags(profile: "work")).caFile?.value == "/env/ca.pem")
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
