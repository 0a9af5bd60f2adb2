import Testing
@testable import KCAuthFastPath
import KCAuthContract

/// When the front answers `kcauth prompt` itself, and when it leaves it to the full program
/// (nil); what it answers is KCAuthContract's SessionGlance and PromptFormat (their own tests),
/// and the same as the full program's (test_front_differential.py).
@Suite struct FastPromptTests {
    static let now = 1_800_000_000.0
    static let config = "[default]\nissuer = https://sso.example.com/realms/r\nclient_id = cli\n[bare]\nscope = openid\n"
    static let record = CacheRecord(accessToken: "eyJ.a.b", tokenType: "DPoP", expiresAt: now + 2_520, scope: "openid",
                                    issuer: "https://sso.example.com/realms/r", clientID: "cli", storage: "keyring", sessionID: "s-1",
                                    user: "alice", renewal: .refreshToken)
    var environment = ["HOME": "/h", "XDG_RUNTIME_DIR": "/r"]
    var files: [String: [UInt8]] = ["/h/.config/kcauth/config": Array(config.utf8), "/r/kcauth": [],
                                    "/r/kcauth/default.token": record.encoded()]
    var directory: DirectoryProfile.Finding = .none

    func answer(_ arguments: String...) -> String? {
        FastPrompt.answer(arguments: ["prompt"] + arguments, environment: { environment[$0] },
                          read: { path, _ in files[path].map { .bytes($0) } ?? .absent },
                          mark: { _, _ in .current("s-1") }, now: Self.now, directoryProfile: { directory })
    }

    @Test func itAnswersWhatTheCacheSays() {
        // A DPoP-bound session is signed in too: the prompt shows no token.
        #expect(answer() == "default 42m\n")
        #expect(answer("--format", "{user}@{profile}:{state}") == "alice@default:valid\n")
        #expect(answer("--format={state} {expires_in}", "--profile=default") == "valid 42m\n")
        #expect(answer("--profile", "nope") == "\n")   // no such profile: an empty line
        var world = self
        world.files["/r/kcauth/default.token"] = nil
        #expect(world.answer() == "default ?\n")
        world.files["/r/kcauth/keyring.locked"] = []
        #expect(world.answer() == "default locked\n")
    }

    @Test func everythingElseIsTheFullProgramsToSay() {
        #expect(answer("--format", "{nope}") == nil)                       // its usage error
        #expect(answer("--profile", "default", "--profile", "default") == nil)
        #expect(answer("--debug") == nil)
        #expect(answer("--format") == nil)
        #expect(answer("--profile", "bad name") == nil)
        #expect(answer("--profile", "bare") == nil)                        // no issuer: the full program's resolver decides
        var world = self
        world.environment["KCAUTH_ISSUER"] = "https://other.example.com/realms/r"
        #expect(world.answer() == nil)
        world = self
        world.environment[ForwardRule.variable] = "/run/agent.sock"
        #expect(world.answer() == nil)
        world = self
        world.files["/h/.config/kcauth/config"] = nil
        #expect(world.answer() == nil)
        world = self
        world.directory = .named("missing", path: "/w/.kcauth-profile")   // the full program falls back, quietly
        #expect(world.answer() == nil)
        world.directory = .ignored(path: "/w/.kcauth-profile", .notAProfileName)
        #expect(world.answer() == nil)
    }
}
