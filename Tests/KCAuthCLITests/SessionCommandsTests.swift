import Foundation
import Testing
import KCAuth
@testable import KCAuthCLI
import KCAuthCore
import KCAuthTestSupport

/// `status`, `profiles`, `use`, `logout` and `whoami` run in-process with a private HOME and the
/// memory store (no keyring, no network), and their renderers.
@Suite struct SessionCommandsTests {
    final class Home {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("kcauth-session-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path + "/config/kcauth", withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var configPath: String { path + "/config/kcauth/config" }
        func write(_ text: String) throws { try text.write(toFile: configPath, atomically: true, encoding: .utf8) }
        func read() throws -> String { try String(contentsOfFile: configPath, encoding: .utf8) }
    }

    static let config = """
    [default]
    issuer = https://sso.example.test/realms/demo
    client_id = kcauth

    [work]
    issuer = https://sso.example.test/realms/work
    client_id = cli
    """

    let home: Home

    init() throws {
        home = try Home()
        try home.write(Self.config)
    }

    func run(_ args: [String], env: [String: String] = [:]) -> (code: Int32, out: String, err: String) {
        let console = RecordingConsole()
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "KCAUTH_STORAGE": "memory"].merging(env) { $1 }
        let code = KCAuthMain.run(arguments: args, environment: environment, console: console)
        return (code, console.stdout, console.stderr)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theProfileIsFlagThenEnvironmentThenDefaultProfileThenDefault() throws {
        let services = Services(environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config"], console: RecordingConsole())
        #expect(try services.resolve(ParsedCommand(name: "status")).name == "default")
        #expect(run(["use", "work"]).code == 0)
        #expect(try home.read().hasPrefix("default_profile = work\n"))
        let again = Services(environment: services.environment, console: RecordingConsole())  // the file is read once per context
        #expect(try again.resolve(ParsedCommand(name: "status")).name == "work")
        let env = Services(environment: services.environment.merging(["KCAUTH_PROFILE": "env"]) { $1 }, console: RecordingConsole())
        #expect(try env.resolve(ParsedCommand(name: "status")).name == "env")
        #expect(try env.resolve(ParsedCommand(name: "status", values: ["profile": "flag"])).name == "flag")
    }

    @Test func useRefusesAnUnknownProfileAndLeavesTheFile() throws {
        let r = run(["use", "wrok"])
        #expect(r.code == 2 && r.err.contains("there is no profile 'wrok'"))
        #expect(try home.read() == Self.config)
    }

    @Test func profilesListsNamesOnlyWithNames() throws {
        #expect(run(["profiles", "--names"]) == (0, "default\nwork\n", ""))
        _ = run(["use", "work"])
        let list = run(["profiles"])
        #expect(list.code == 0 && list.out.contains("* work (default)") && list.out.contains("  default "))
        let doc = try json(run(["profiles", "-o", "json"]).out)
        #expect(doc["default_profile"] as? String == "work" && doc["selected_profile"] as? String == "work")
        let profiles = try #require(doc["profiles"] as? [[String: Any]])
        #expect((profiles[1]["settings"] as? [String: String])?["client_id"] == "cli")
    }

    @Test func profilesListsOnlyTheFilesProfilesAndSaysWhatToDoWithoutOne() throws {
        let listed = run(["profiles", "--profile", "nosuch"])
        #expect(listed.code == 0 && listed.out.hasPrefix("  default ") && !listed.out.contains("nosuch") && !listed.out.contains("*"))
        #expect(listed.err == "Commands use profile 'nosuch' now, which is not in \(home.configPath): "
                + "`kcauth login --profile nosuch` creates it, `kcauth use NAME` picks another.\n")
        try FileManager.default.removeItem(atPath: home.configPath)
        let fresh = run(["profiles"])
        #expect(fresh == (0, "", "No profiles in \(home.configPath) yet: `kcauth login --issuer URL --client-id ID` creates one "
                          + "(--profile NAME names it).\n"))
        let json = try self.json(run(["profiles", "-o", "json"]).out)
        #expect((json["profiles"] as? [Any])?.isEmpty == true && json["selected_profile"] as? String == "default")
    }

    @Test func statusPrintsEveryProfileAndExitsByTheSelectedOne() throws {
        let r = run(["status", "-o", "json"])
        #expect(r.code == 4 && r.err.isEmpty, "the report says it all: no second error line")
        let doc = try json(r.out)
        #expect(doc["version"] as? Int == 1 && doc["selected_profile"] as? String == "default")
        let profiles = try #require(doc["profiles"] as? [[String: Any]])
        #expect(profiles.map { $0["profile"] as? String } == ["default", "work"])
        #expect(profiles[1]["state"] as? String == "login_required" && profiles[1]["fix"] as? String == "kcauth login --profile work")
        #expect(Set(profiles[0].keys) == ["profile", "selected", "issuer", "client_id", "client_auth", "client_auth_source", "user", "state", "usable", "reason",
                                          "access_token_expires_at", "access_token_expires_in", "refresh_token_expires_at",
                                          "refresh_token_expires_in", "storage", "dpop", "fix"])
        #expect(run(["status", "-o", "yaml"]).code == 2)
    }

    @Test func aMalformedConfigFileIsReportedWithItsLineAndKeptAsItIs() throws {
        let broken = Self.config + "\nthis is not a setting\n"
        try home.write(broken)
        for args in [["status"], ["profiles"], ["logout"], ["whoami"], ["use", "work"]] {
            let r = run(args)
            #expect(r.code == 1 && r.err.contains("\(home.configPath):8: expected 'key = value'"), "\(args): \(r.err)")
        }
        #expect(try home.read() == broken)
    }

    @Test func anUnknownKeyIsOneWarningLineOnUseWithTheKeyMeant() throws {
        try home.write(Self.config + "\nclientid = other\nhost = git.example.com\n")
        let warning = "warning: \(home.configPath):8: profile [work]: unknown key 'clientid' (did you mean 'client_id'?), ignored "
            + "(and 1 more: `kcauth doctor` lists them)\n"
        for args in [["profiles"], ["status"], ["whoami"]] {
            #expect(run(args).err.hasPrefix(warning), "\(args)")
        }
        #expect(run(["profiles", "--names"]) == (0, "default\nwork\n", warning))
        #expect(run(["help"]).err.isEmpty, "a command that does not read the file says nothing of it")
        try home.write("issuer = https://x/realms/y\n" + Self.config)
        #expect(run(["profiles", "--names"]).err == "warning: \(home.configPath):1: 'issuer' is a profile's key, ignored "
                + "before the first section: move it under a [profile] line\n")
    }

    @Test func logoutRejectsContradictoryFlags() {
        #expect(run(["logout", "--all", "--profile", "work"]).code == 2)
        #expect(run(["logout", "--local", "--browser"]).code == 2)
        #expect(run(["logout", "--all", "--browser"]).code == 2)
        #expect(run(["logout", "--browser", "--timeout", "0"]).code == 2)
    }

    @Test func logoutOfAProfileThatIsNotSignedInSucceeds() {
        let r = run(["logout", "--profile", "work"])
        #expect(r.code == 0 && r.err == "Profile 'work' was not signed in; nothing to delete.\n")
    }

    @Test func logoutForgetRemovesTheSettingsAndTheDefault() throws {
        _ = run(["use", "work"])
        let r = run(["logout", "--local", "--forget"])
        #expect(r.code == 0 && r.err.contains("Forgot the settings of profile 'work'; the default profile is 'default' again."))
        let text = try home.read()
        #expect(!text.contains("[work]") && !text.contains("default_profile") && text.contains("[default]"))
    }

    @Test func whoamiWithoutASessionExits4() {
        let r = run(["whoami", "-o", "json"])
        #expect(r.code == 4 && r.out.isEmpty && r.err.contains("not logged in (profile 'default', memory storage)"))
    }

    static let identity = WhoAmI.Identity(
        profile: "default", issuer: "https://sso/realms/demo", clientID: "kcauth",
        claims: IdentityClaims(payload: .fields([("sub", .string("u-1")), ("preferred_username", .string("alice"))])),
        rolesSource: "id_token", realmRoles: ["a", "b"], clientRoles: [ClientRoles(client: "account", roles: ["view"])],
        scopes: ["openid", "email"], accessTokenExpiresAt: 1_000_300, refreshTokenExpiresAt: nil, hasRefreshToken: true,
        health: .valid, storage: "keyring", userinfo: .fields([("sub", .string("u-1")), ("groups", .strings(["g1", "g2"]))]))

    @Test func whoamiJSONHasTheDocumentedKeysInOrder() throws {
        let text = WhoAmIOutput.json(Self.identity, now: 1_000_000)
        let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.dropFirst(3).prefix { $0 != "\"" } }
        #expect(keys == ["version", "profile", "issuer", "client_id", "client_auth", "client_auth_source", "client_assertion", "subject",
                         "preferred_username", "name", "email",
                         "realm_roles", "client_roles", "roles_source", "scopes", "state", "access_token_expires_at",
                         "access_token_expires_in", "has_refresh_token", "refresh_token_expires_at", "refresh_token_expires_in",
                         "storage", "dpop", "userinfo"])
        let doc = try json(text)
        #expect(doc["access_token_expires_in"] as? Int == 300 && doc["name"] is NSNull)
        #expect((doc["client_roles"] as? [String: [String]]) == ["account": ["view"]])
    }

    @Test func whoamiTextLinesUpItsValues() {
        let text = WhoAmIOutput.text(Self.identity, now: 1_000_000)
        #expect(text.contains("Username       alice\n"))
        #expect(text.contains("Access token   valid until 1970-01-12T13:51:40Z (in 5m 0s)\n"))
        #expect(text.contains("Refresh token  stored, no expiry given\n"))
        #expect(text.contains("Client roles   account: view\n"))
        #expect(text.contains("  groups       g1, g2\n"))
    }
}
