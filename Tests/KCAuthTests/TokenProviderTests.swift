import Testing
@testable import KCAuth
import KCAuthTestSupport

/// The library reads the same session as the command, with the same profile rules.
@Suite struct TokenProviderTests {
    @Test func profileFollowsTheCommandsRules() throws {
        #expect(try TokenProvider(profile: "work", environment: ["HOME": "/nonexistent"]).profile == "work")
        #expect(try TokenProvider(environment: ["HOME": "/nonexistent", "KCAUTH_PROFILE": "ci"]).profile == "ci")
        #expect(try TokenProvider(environment: ["HOME": "/nonexistent"]).profile == "default")
        #expect(throws: KCAuthError.self) { try TokenProvider(profile: "../etc", environment: [:]) }
    }

    @Test func withoutAKeyringTheErrorSaysWhy() async throws {
        // No bus, no runtime dir: the keyring store reports it before touching D-Bus.
        let provider = try TokenProvider(profile: "p", environment: ["HOME": "/nonexistent", "XDG_RUNTIME_DIR": "/nonexistent/run"])
        await #expect { try await provider.freshAccessToken() } throws: { ($0 as? KCAuthError)?.code == .storageUnavailable }
    }

    @Test func durationsBecomeSeconds() {
        #expect(TokenProvider.seconds(.seconds(30)) == 30)
        #expect(TokenProvider.seconds(.milliseconds(1500)) == 1.5)
    }
}
