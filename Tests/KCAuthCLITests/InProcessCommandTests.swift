import Foundation
import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// Every session command run in-process, exactly as `main` runs it, over the fakes of
/// `KCAuthTestSupport`: a scripted browser, a stubbed provider, in-memory stores and settings.
/// (The same commands run against the real provider and keyring in Tests/Integration.)
@Suite struct InProcessCommandTests {
    let fake = FakeAdapters(config: FakeAdapters.profileConfig)

    init() {
        fake.serveProvider()
        fake.browserSignsIn()
    }

    /// One process: a fresh composition root over the shared fakes, as each `kcauth` run has.
    func run(_ args: [String]) -> (code: Int32, out: String, err: String) {
        let console = RecordingConsole()
        let code = KCAuthMain.run(arguments: args, services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        return (code, console.stdout, console.stderr)
    }

    func stored() throws -> AuthState {
        try AuthState.decode(try #require(fake.keyring.items["default"]?.1), profile: "default")
    }

    @Test func loginStoresTheSessionAndRemembersTheSettings() throws {
        let r = run(["login", "--browser", "--scope", "openid email"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.isEmpty && r.err.contains("Logged in to \(Fixtures.issuer) as alice (profile 'default')."))
        let state = try stored()
        #expect(state.accessToken == "at-1" && state.sessionID != nil)
        #expect(fake.settings.text.contains("scope = openid email"))
        #expect(fake.opener.opened.count == 1)
    }

    @Test func tokenReadsTheConfigurationOnceAndAWarmCacheNotTheStore() throws {
        #expect(run(["login", "--browser"]).code == 0)
        #expect(run(["token"]).out == "at-1\n", "the first call reads the store and fills the cache")
        let loads = fake.settings.loads, reads = fake.keyring.reads
        let r = run(["token"])
        #expect(r.code == 0 && r.out == "at-1\n" && r.err.isEmpty)
        #expect(fake.settings.loads == loads + 1, "one read of the configuration file per process")
        #expect(fake.keyring.reads == reads, "a warm cache answers without the keyring")
        #expect(fake.transport.requests(to: Fixtures.tokenEndpoint).count == 1, "and without the network (only the login's exchange)")
    }

    @Test func refreshStoresTheNewTokensAndPrintsThem() throws {
        #expect(run(["login", "--browser"]).code == 0)
        fake.transport.replace(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse(accessToken: "at-2"))
        let r = run(["refresh", "-o", "json"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains(#""access_token": "at-2""#) && r.err.hasPrefix("Refreshed profile 'default'"))
        #expect(try stored().accessToken == "at-2")
    }

    @Test func logoutEndsTheSessionAndForgetsTheCachedToken() throws {
        #expect(run(["login", "--browser"]).code == 0)
        #expect(run(["token"]).code == 0)
        fake.transport.on(.post, Fixtures.issuer + "/protocol/openid-connect/logout", json: "")
        fake.transport.on(.post, Fixtures.issuer + "/protocol/openid-connect/revoke", json: "")
        let r = run(["logout"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("Signed out of profile 'default'"))
        #expect(fake.keyring.items.isEmpty && fake.cache.tokens.isEmpty)
        let after = run(["token"])
        #expect(after.code == 4 && after.out.isEmpty && after.err.contains("run `kcauth login`"))
    }

    @Test func whoamiAndStatusReportTheSession() throws {
        #expect(run(["login", "--browser"]).code == 0)
        let who = run(["whoami", "-o", "json"])
        #expect(who.code == 0 && who.out.contains(#""preferred_username": "alice""#))
        let status = run(["status"])
        #expect(status.code == 0 && status.out.contains("✓ Logged in to \(Fixtures.issuer) as alice"))
    }

    @Test func withoutASessionEveryCommandSaysHowToSignIn() {
        for command in [["token"], ["refresh"], ["whoami"], ["status"]] {
            let r = run(command)
            #expect(r.code == 4 && r.out.isEmpty == (command != ["status"]), "\(command): \(r.err)")
            // status reports on stdout and adds no error line; the others say it on stderr.
            #expect((command == ["status"] ? r.out : r.err).contains("kcauth login"), "\(command): \(r.err)")
        }
        let logout = run(["logout"])
        #expect(logout.code == 0 && logout.err.contains("was not signed in"))
    }

    /// The cache serves only the stored session's token: a login that fails after the secret was
    /// stored must never leave the old session's cached token being served.
    @Test func aLoginThatFailsLateNeverLeavesTheOldTokenBeingServed() throws {
        #expect(run(["login", "--browser"]).code == 0)
        #expect(run(["token"]).out == "at-1\n")  // now in the runtime cache
        #expect(fake.cache.tokens["default"] != nil)
        fake.transport.replace(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse().replacingOccurrences(of: "rt-1", with: "rt-2"))
        fake.settings.failSaves(with: KCAuthError(.configuration, "cannot write the configuration file: disk full"))

        let login = run(["login", "--browser", "--scope", "openid email"])
        #expect(login.code == 1 && login.err.contains("disk full"), "\(login.err)")
        #expect(try stored().refreshToken == "rt-2", "the new session is stored")
        #expect(fake.cache.tokens["default"] == nil, "and the old session's cached copy went before the store changed")
        let reads = fake.keyring.reads
        #expect(run(["token"]).code == 0)
        #expect(fake.keyring.reads == reads + 1, "so the next token comes from the new session in the store")
    }

    @Test func aDeadSessionIsRemovedOnlyWhileItIsStillTheOneThatWasRefused() throws {
        #expect(run(["login", "--browser"]).code == 0)
        fake.transport.replace(.post, Fixtures.tokenEndpoint, status: 400, json: #"{"error":"invalid_grant","error_description":"Token is not active"}"#)
        let r = run(["refresh"])
        #expect(r.code == 4 && r.err.contains("has ended at the provider (invalid_grant (Token is not active))"))
        #expect(fake.keyring.items.isEmpty, "the refused refresh token is gone")
        #expect(fake.settings.text.contains("client_id = kcauth"), "the settings stay")
    }
}

/// `error: what happened; what to do`: every error line says what happened and what to do.
@Suite struct ErrorLineTests {
    @Test(arguments: KCAuthError.Code.known)
    func everyKindOfErrorHasAFixPart(_ code: KCAuthError.Code) {
        let line = ErrorPresenter.line(KCAuthError(code, "something happened"))
        #expect(line.hasPrefix("error: something happened; ") && line.count > "error: something happened; ".count + 10, "\(line)")
    }

    @Test func theProvidersErrorCodeChoosesTheFix() {
        let error = KCAuthError(.provider, "refreshing the token failed: invalid_scope", oauthError: .invalidScope)
        #expect(ErrorPresenter.line(error).contains("ask only for scopes the client may request"))
    }

    @Test func anErrorsOwnHintWins() {
        #expect(ErrorPresenter.line(KCAuthError(.network, "x", hint: "do this")) == "error: x; do this")
        #expect(ErrorPresenter.line(KCAuthError(.loginRequired, "x", remedy: .signIn(profile: "w"))) == "error: x; run `kcauth login --profile w`")
    }
}
