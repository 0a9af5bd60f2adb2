import FoundationEssentials
import Testing
@testable import KCAuthCLI
@testable import KCAuthCore
import KCAuthContract
import KCAuthFastPath

/// The fast path (KCAuthFastPath) and the full program print the same bytes for the same cache
/// file: the full program's way is RuntimeTokenCache's reader (the contract's CacheRecord) +
/// TokenOutput.render.
@Suite struct FastPathAgreementTests {
    static let now = 1_800_000_000.0
    static let files = [
        "/c/kcauth/config": "[default]\nissuer = https://sso.example.com/realms/demo\nclient_id = cli\n\n[work]\nissuer = https://sso.example.com/realms/demo\nclient_id = cli\n",
        "/r/kcauth": "",
    ]

    static func cacheFile(_ token: CachedToken) -> String {
        String(decoding: token.record.encoded(), as: UTF8.self)
    }

    static func token(scope: String = "openid profile email", expiresAt: String = "2027-01-15T08:17:03Z") -> CachedToken {
        var t = try! JSONDecoder().decode(CachedToken.self, from: Data("""
            {"access_token":"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln","token_type":"Bearer","scope":"x","issuer":"https://sso.example.com/realms/demo","client_id":"cli","storage":"keyring","session_id":"s-1"}
            """.utf8))
        t.scope = scope
        t.expiresAt = Instant(rfc3339: expiresAt)
        return t
    }

    @Test(arguments: TokenOutput.allCases, ["default", "work"])
    func bothPathsPrintTheSameBytes(_ format: TokenOutput, _ profile: String) throws {
        let token = Self.token()
        let fileText = Self.cacheFile(token)
        var files = Self.files
        files["/r/kcauth/\(profile).token"] = fileText
        let fast = FastTokenPath.answer(arguments: ["token", "-o", format.rawValue, "--profile", profile],
                                        environment: { ["XDG_CONFIG_HOME": "/c", "XDG_RUNTIME_DIR": "/r"][$0] },
                                        read: { path, _ in files[path].map { .bytes(Array($0.utf8)) } ?? .absent },
                                        mark: { _, _ in .current("s-1") }, now: Self.now)
        let decoded = CachedToken(try #require(CacheRecord(Array(fileText.utf8))))
        let full = format.render(IssuedToken(decoded), idToken: false, profile: profile, now: Instant(clock: Self.now))
        #expect(fast == full)
    }

    @Test func whatTheFastPathCannotRenderItLeavesToTheFullProgram() {
        var files = Self.files
        files["/r/kcauth/default.token"] = Self.cacheFile(Self.token(scope: "a \"quoted\" scope"))
        let fast = FastTokenPath.answer(arguments: ["token", "-o", "json"], environment: { ["XDG_CONFIG_HOME": "/c", "XDG_RUNTIME_DIR": "/r"][$0] },
                                        read: { path, _ in files[path].map { .bytes(Array($0.utf8)) } ?? .absent },
                                        mark: { _, _ in .current("s-1") }, now: Self.now)
        #expect(fast == nil)
    }
}
