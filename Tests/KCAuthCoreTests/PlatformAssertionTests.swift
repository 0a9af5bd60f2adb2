import Foundation
import Testing
@testable import KCAuthCore
import KCAuthContract
import KCAuthTestSupport

/// A platform's assertion (federated client authentication, RFC 7521 §4.2): the sources it is
/// fetched from for each token request, what the request carries, and the errors that say what
/// to fix (exit 1: no sign-in fixes them). Never the assertion or the request token in a message.
@Suite("Platform assertions: GitHub Actions, env:, file:, command:")
struct PlatformAssertionTests {
    static let serviceURL = "https://pipelines.actions.githubusercontent.com/abc/idtoken?api-version=2.0"
    static let requestToken = "ghs-request-token-value"
    static let issuer = "https://sso.example.test/realms/ci"
    static let jwt = PlatformJWT.make(["iss": "https://token.actions.githubusercontent.com", "sub": "repo:org/app:ref:refs/heads/main",
                                       "aud": issuer, "exp": 1_900_000_000])

    let transport = FakeTransport()
    let reader = FakeCredentialReader()
    let commands = ScriptedAssertionCommands()

    var ports: CredentialPorts {
        CredentialPorts(reader: reader, platform: { [transport] in transport }, commands: { [commands] in commands })
    }

    func source(_ assertion: PlatformAssertion) -> ClientAssertionSource {
        ClientAssertionSource(assertion, ports: ports, issuer: Self.issuer)
    }

    func inGitHubJob(url: String = serviceURL) {
        reader.environment[GitHubActionsIDToken.urlVariable] = url
        reader.environment[GitHubActionsIDToken.tokenVariable] = Self.requestToken
    }

    static func service(audience: String = issuer) -> String {
        serviceURL + "&audience=" + FormEncoding.escape(audience)
    }

    // MARK: github-actions

    @Test func eachRequestAsksGitHubForANewIDTokenForTheIssuer() throws {
        inGitHubJob()
        transport.on(.get, Self.service(), json: #"{"count":1,"value":"\#(Self.jwt)"}"#)
        let auth = ClientAuthenticator(clientID: "ci", authentication: .clientAssertion(source(PlatformAssertion(.githubActions))),
                                       clock: FixedClock(time: Fixtures.now), random: FixedRandom())
        for _ in 0..<3 {
            let p = try auth.parameters(audience: Fixtures.tokenEndpoint)
            let fields = Dictionary(p.fields.map { ($0.name, $0.reveal()) }, uniquingKeysWith: { a, _ in a })
            #expect(fields == ["client_id": "ci", "client_assertion": Self.jwt,
                               "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"])
            #expect(p.platformAssertion?.subject == "repo:org/app:ref:refs/heads/main")
        }
        #expect(transport.requests.count == 3, "a new ID token for every token request")
        let sent = try #require(transport.requests.first)
        #expect(sent.method == .get && sent.url.reveal() == Self.serviceURL + "&audience=https%3A%2F%2Fsso.example.test%2Frealms%2Fci")
        #expect(sent.headers.map { "\($0.name): \($0.value.reveal())" } == ["Authorization: bearer \(Self.requestToken)", "Accept: application/json"])
        #expect(sent.headers.first?.value.holdsSecret == true, "the request token is a secret in a trace")
    }

    @Test func theProfilesAudienceAndASpiffeTypeAreUsed() throws {
        inGitHubJob(url: "https://forgejo.example.test/api/actions/_apis/pipelines/workflows/7/idtoken")
        transport.on(.get, "https://forgejo.example.test/api/actions/_apis/pipelines/workflows/7/idtoken?audience=sts.example.test",
                     json: #"{"value":"\#(Self.jwt)"}"#)
        let auth = ClientAuthenticator(clientID: "ci", authentication: .clientAssertion(source(PlatformAssertion(
            .githubActions, audience: "sts.example.test", type: .spiffe))), clock: FixedClock(time: Fixtures.now), random: FixedRandom())
        let fields = Dictionary(try auth.parameters(audience: Fixtures.tokenEndpoint).fields.map { ($0.name, $0.reveal()) }, uniquingKeysWith: { a, _ in a })
        #expect(fields["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-spiffe")
    }

    @Test(arguments: [[:], [GitHubActionsIDToken.urlVariable: serviceURL], [GitHubActionsIDToken.tokenVariable: "t"],
                      [GitHubActionsIDToken.urlVariable: "", GitHubActionsIDToken.tokenVariable: ""]])
    func withoutTheIDTokenPermissionTheErrorSaysToGrantIt(_ environment: [String: String]) {
        reader.environment = environment
        let error = #expect(throws: KCAuthError.self) { try source(PlatformAssertion(.githubActions)).currentAssertion() }
        #expect(error?.code == .configuration && error?.remedy == .grantIDTokenPermission)
        #expect(error?.message == "GitHub Actions gives this job no ID token: $ACTIONS_ID_TOKEN_REQUEST_URL and "
                + "$ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set")
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [(401, KCAuthError.Remedy.renewIDTokenRequest), (403, .renewIDTokenRequest), (429, .retryPlatformIDToken),
                      (503, .retryPlatformIDToken), (404, .checkIDTokenRequestURL), (400, .checkIDTokenRequestURL)])
    func aRefusalNamesTheStatusAndTheFix(_ status: Int, _ remedy: KCAuthError.Remedy) {
        inGitHubJob()
        transport.on(.get, Self.service(), status: status, json: #"{"message":"Bad credentials \#(Self.requestToken)"}"#)
        let error = #expect(throws: KCAuthError.self) { try source(PlatformAssertion(.githubActions)).currentAssertion() }
        #expect(error?.code == .network && error?.httpStatus == status && error?.remedy == remedy)
        #expect(error?.message == "GitHub Actions' ID-token service at pipelines.actions.githubusercontent.com answered HTTP \(status)")
    }

    @Test func aServiceThatDoesNotAnswerIsANetworkErrorWithItsFix() {
        struct Silent: HTTPTransport {
            func send(_ request: HTTPRequest) throws -> HTTPResponse {
                throw KCAuthError(.network, "timed out after 30 s waiting for pipelines.actions.githubusercontent.com:443", remedy: .retryOrCheckProvider)
            }
        }
        inGitHubJob()
        let error = #expect(throws: KCAuthError.self) {
            try ClientAssertionSource(PlatformAssertion(.githubActions), ports: CredentialPorts(reader: reader, platform: { Silent() },
                                                                                                  commands: { ScriptedAssertionCommands() }),
                                      issuer: Self.issuer).currentAssertion()
        }
        #expect(error?.code == .network && error?.remedy == .retryPlatformIDToken)
        #expect(error?.message == "GitHub Actions' ID-token service did not answer: timed out after 30 s waiting for "
                + "pipelines.actions.githubusercontent.com:443")
    }

    @Test(arguments: [#"{"count":1}"#, #"{"value":"not-a-jwt"}"#, #"[]"#, "<html>"])
    func anAnswerWithoutAJWTIsAnInvalidResponse(_ body: String) {
        inGitHubJob()
        transport.on(.get, Self.service(), json: body)
        let error = #expect(throws: KCAuthError.self) { try source(PlatformAssertion(.githubActions)).currentAssertion() }
        #expect(error?.code == .invalidResponse && error?.message.contains("not-a-jwt") == false)
    }

    /// The request token goes over https, or plain http to a numeric loopback address only.
    @Test(arguments: ["http://runner.example.test/idtoken?x=1", "http://localhost:8080/t", "http://127.0.0.1.evil.example/t",
                      "ftp://127.0.0.1/t", "https://user@host.example/t", "no-url"])
    func theRequestTokenNeverTravelsInTheClear(_ url: String) {
        inGitHubJob(url: url)
        let error = #expect(throws: KCAuthError.self) { try source(PlatformAssertion(.githubActions)).currentAssertion() }
        #expect(error?.code == .configuration && error?.message.contains(Self.requestToken) == false)
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: ["http://127.0.0.1:8123/token?api-version=2.0", "http://[::1]:8123/token"])
    func plainHTTPToALoopbackAddressIsAllowed(_ url: String) throws {
        inGitHubJob(url: url)
        transport.on(.get, url + (url.contains("?") ? "&" : "?") + "audience=" + FormEncoding.escape(Self.issuer), json: #"{"value":"\#(Self.jwt)"}"#)
        #expect(try source(PlatformAssertion(.githubActions)).currentAssertion().reveal() == Self.jwt)
    }

    @Test func theSecretsPrintRedacted() throws {
        inGitHubJob()
        transport.on(.get, Self.service(), json: #"{"value":"\#(Self.jwt)"}"#)
        let fresh = try source(PlatformAssertion(.githubActions)).currentAssertion()
        for text in ["\(fresh)", String(reflecting: fresh), "\(source(PlatformAssertion(.githubActions)))"] {
            #expect(!text.contains(Self.jwt) && !text.contains(Self.requestToken), "\(text)")
        }
        #expect("\(fresh)".hasPrefix("[client_assertion: \(Self.jwt.utf8.count) bytes, sha256 "))
    }

    // MARK: command:

    @Test func aCommandGetsTheAudienceAndItsTrimmedStdoutIsTheAssertion() throws {
        commands.outcomes = [.success(.exited(status: 0, output: Array("\n  \(Self.jwt)\n".utf8)))]
        let fresh = try source(PlatformAssertion(.command(["get-token", "--for", "ci"]))).currentAssertion()
        #expect(fresh.reveal() == Self.jwt)
        let run = try #require(commands.runs.first)
        #expect(run.argv == ["get-token", "--for", "ci"] && run.environment == ["KCAUTH_CLIENT_ASSERTION_AUDIENCE": Self.issuer])
        #expect(run.seconds == 10)
    }

    @Test(arguments: [
        (AssertionCommandOutcome.exited(status: 3, output: []), "the client assertion command get-token failed (exit status 3); what it printed on stderr is above"),
        (.timedOut, "the client assertion command get-token did not finish within 10 s; it was stopped"),
        (.outputTooLarge, "the client assertion command get-token printed more than 16384 bytes; it was stopped"),
        (.exited(status: 0, output: Array("token please\n".utf8)), "the client assertion command get-token printed no signed JWT (header.payload.signature) on stdout"),
    ])
    func aCommandThatFailsIsNamed(_ outcome: AssertionCommandOutcome, _ message: String) {
        commands.outcomes = [.success(outcome)]
        let error = #expect(throws: KCAuthError.self) { try source(PlatformAssertion(.command(["get-token"]))).currentAssertion() }
        #expect(error?.code == .configuration && error?.message == message)
    }

    // MARK: env: and file:

    @Test func aVariableAndAFileAreReadAgainEachTime() throws {
        reader.environment["CI_JOB_JWT"] = Self.jwt
        reader.files["/var/run/secrets/tokens/kcauth"] = Array((Self.jwt + "\n").utf8)
        #expect(try source(PlatformAssertion(.environment("CI_JOB_JWT"))).currentAssertion().reveal() == Self.jwt)
        let file = source(PlatformAssertion(.file("/var/run/secrets/tokens/kcauth")))
        _ = try file.currentAssertion()
        _ = try file.currentAssertion()
        #expect(reader.fileReads == 2)
        let missing = #expect(throws: KCAuthError.self) { try source(PlatformAssertion(.environment("ID_TOKEN_1"))).currentAssertion() }
        #expect(missing?.message == "the client assertion is to come from $ID_TOKEN_1, which is not set")
    }

    // MARK: what doctor and whoami show

    @Test func aPreviewSaysWhatTheAssertionSaysNeverTheAssertion() throws {
        inGitHubJob()
        transport.on(.get, Self.service(), json: #"{"value":"\#(Self.jwt)"}"#)
        let preview = AssertionPreview.take(source(PlatformAssertion(.githubActions)))
        #expect(preview.sourceSummary == "github-actions, audience \(Self.issuer)")
        #expect(preview.claims == AssertionClaims(issuer: "https://token.actions.githubusercontent.com", subject: "repo:org/app:ref:refs/heads/main",
                                                  audiences: [Self.issuer], expiresAt: Instant(epochSeconds: 1_900_000_000)))
        #expect(preview.error == nil && !"\(preview)".contains(Self.jwt))
        reader.environment = [:]
        let failed = AssertionPreview.take(source(PlatformAssertion(.githubActions)))
        #expect(failed.claims == nil && failed.error?.remedy == .grantIDTokenPermission)
        #expect(AssertionPreview.take(source(PlatformAssertion(.file("/t")))).audience == nil, "a file carries the platform's own")
    }

    @Test func hostileClaimsAreOneLineAndShort() {
        let claims = AssertionClaims(unverified: Secret(.clientAssertion, PlatformJWT.make(["iss": "a\nb", "sub": String(repeating: "s", count: 5000),
                                                                    "aud": ["x", 7, "y"], "exp": "soon"])))
        #expect(claims?.issuer == "a b" && (claims?.subject?.count ?? 0) <= 201 && claims?.audiences == ["x", "y"] && claims?.expiresAt == nil)
        #expect(AssertionClaims(unverified: "a.b.c") == nil)
    }
}
