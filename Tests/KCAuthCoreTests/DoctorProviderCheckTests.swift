import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// `kcauth doctor`'s provider checks over a stub transport: what each outcome looks like, and the
/// HTTP-date parsing behind the clock-skew check.
@Suite struct DoctorProviderCheckTests {
    static let issuer = "https://sso.example.com/realms/demo"
    static let discoveryURL = issuer + "/.well-known/openid-configuration"
    static let now = 1_800_000_000.0

    static func discovery(issuer: String = issuer) -> String {
        """
        {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/protocol/openid-connect/auth",
         "token_endpoint":"\(issuer)/protocol/openid-connect/token","jwks_uri":"\(issuer)/protocol/openid-connect/certs",
         "code_challenge_methods_supported":["plain","S256"]}
        """
    }

    func run(date: String?, body: String = discovery(), status: Int = 200, issuer: String? = issuer) -> [DoctorCheck] {
        var headers = ["content-type": "application/json"]
        if let date { headers["date"] = date }
        let transport = StubTransport(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))
        return ProviderChecks(transport: transport, clock: FixedClock(time: Self.now)).run(issuer: issuer, profile: "default")
    }

    @Test func allPassWithAValidDocumentAndASyncedClock() {
        let checks = run(date: HTTPDateTests.format(Self.now))
        #expect(checks.map(\.id) == ["issuer", "discovery", "clock", "dpop-par"])
        #expect(checks.map(\.status) == [.pass, .pass, .pass, .pass], "\(checks)")
        #expect(checks[2].detail == "within 1 s of the provider's clock")
        #expect(checks.allPassed)
    }

    @Test func dpopAndPARAreReportedWithWhatTheProfileUses() throws {
        let checker = ProviderChecks(transport: StubTransport(HTTPResponse(status: 500, headers: [:], body: [])), clock: FixedClock(time: Self.now))
        let keycloak = try JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8))
        let both = checker.senderConstraintCheck(keycloak, dpop: .yes, par: .auto)
        #expect(both.status == .pass)
        #expect(both.detail == "the provider does not advertise DPoP and a PAR endpoint; the profile uses dpop = yes, par = auto (the browser flow pushes)")
        var advertising = keycloak
        advertising.dpopSigningAlgValuesSupported = ["ES256", "PS256"]
        #expect(checker.senderConstraintCheck(advertising, dpop: .no, par: .never).detail
                == "the provider advertises DPoP (ES256, PS256) and a PAR endpoint; the profile uses dpop = no, par = never (ordinary requests)")
        advertising.dpopSigningAlgValuesSupported = ["EdDSA"]
        #expect(checker.senderConstraintCheck(advertising, dpop: .yes, par: .auto).status == .fail)
        var plain = try JSONDecoder().decode(ProviderMetadata.self, from: Data(Self.discovery(issuer: "https://op.example.test").utf8))
        plain.pushedAuthorizationRequestEndpoint = nil
        let always = checker.senderConstraintCheck(plain, dpop: .no, par: .always)
        #expect(always.status == .fail && always.detail.contains("no PAR endpoint") && always.remedy == .signInWithPAR([.auto, .never]))
        #expect(checker.senderConstraintCheck(advertising, dpop: .yes, par: .auto).remedy == .signInWithoutDPoP)
        #expect(checker.senderConstraintCheck(nil, dpop: .no, par: .auto).status == .skip)
    }

    @Test func aClockMoreThanTheLeewayOffFails() {
        let checks = run(date: HTTPDateTests.format(Self.now - 125))
        #expect(checks[2].status == .fail)
        #expect(checks[2].detail == "this machine's clock is 125 s ahead of the provider's")
        #expect(checks[2].fix?.contains("timedatectl") == true)
        #expect(!checks.allPassed)
        #expect(run(date: HTTPDateTests.format(Self.now + 30))[2].detail == "30 s behind the provider's clock")
    }

    @Test func noDateHeaderSkipsTheSkewCheck() {
        #expect(run(date: nil)[2].status == .skip)
        #expect(run(date: "yesterday")[2].status == .skip)
    }

    @Test func aDocumentForAnotherIssuerFailsDiscovery() {
        let checks = run(date: nil, body: Self.discovery(issuer: "https://evil.example.com/realms/demo"))
        #expect(checks[0].status == .pass)
        #expect(checks[1].status == .fail)
        #expect(checks[1].detail.contains("names issuer 'https://evil.example.com/realms/demo'"))
        #expect(checks[1].fix?.contains("/realms/REALM") == true)
    }

    @Test func aNon200AnswerIsReachableButNoDiscovery() {
        let checks = run(date: nil, body: "<html>", status: 404)
        #expect(checks.map(\.status) == [.pass, .fail, .skip, .skip])
        #expect(checks[0].detail.contains("answered HTTP 404"))
    }

    func reach(_ error: KCAuthError) -> [DoctorCheck] {
        ProviderChecks(transport: StubTransport(error: error), clock: FixedClock(time: Self.now)).run(issuer: Self.issuer, profile: "p")
    }

    @Test func aTransportFailureFailsReachabilityAndSkipsTheRest() {
        let checks = reach(KCAuthError(.network, "connection to sso.example.com:443 failed during the exchange"))
        #expect(checks.map(\.status) == [.fail, .skip, .skip, .skip])
        #expect(checks[0].detail == "connection to sso.example.com:443 failed during the exchange")
        #expect(checks[0].fix == "check the issuer URL, your network and $https_proxy / $no_proxy" && checks[0].remedy == nil)
    }

    /// The advice comes from the transport's typed cause, whatever its message says.
    @Test func anUntrustedCertificateIsAdvisedToNameTheCA() {
        let checks = reach(KCAuthError(.network, "certificate problem", remedy: .checkCA(host: "sso.example.com", caFile: nil)))
        #expect(checks[0].status == .fail && checks[0].fix == nil)
        #expect(checks[0].remedy == .checkCA(host: "sso.example.com", caFile: nil))
        // A message that merely reads like one decides nothing.
        #expect(reach(KCAuthError(.network, "TLS certificate of x is not trusted"))[0].remedy == nil)
    }

    @Test func anUnresolvableHostIsAdvisedToCheckTheNameAndDNS() {
        let checks = reach(KCAuthError(.network, "cannot resolve host sso.example.com", remedy: .checkHostName(host: "sso.example.com")))
        #expect(checks[0].fix == nil && checks[0].remedy == .checkHostName(host: "sso.example.com"))
        #expect(reach(KCAuthError(.network, "cannot resolve host x"))[0].remedy == nil)
        // The transport's own hint (a proxy in the way) comes first.
        let proxied = reach(KCAuthError(.network, "cannot resolve host x", hint: "$https_proxy is set", remedy: .checkHostName(host: "x")))
        #expect(proxied[0].fix == "$https_proxy is set")
    }

    @Test func noIssuerSkipsAllThree() {
        let checks = run(date: nil, issuer: nil)
        #expect(checks.map(\.status) == [.skip, .skip, .skip, .skip])
        #expect(checks[0].detail == "no issuer configured for profile 'default'")
        #expect(checks.allPassed, "a skipped check is not a failure")
    }

    @Test func aPlainHTTPIssuerFailsWithoutARequest() {
        let transport = StubTransport(error: KCAuthError(.internal, "must not be called"))
        let checks = ProviderChecks(transport: transport, clock: FixedClock(time: Self.now)).run(issuer: "http://sso.example.com/realms/x", profile: "p")
        #expect(checks[0].status == .fail && checks[0].detail.contains("https"))
        #expect(transport.calls == 0)
    }
}

@Suite struct HTTPDateTests {
    /// IMF-fixdate via gmtime, as a server would write it.
    static func format(_ t: Double) -> String {
        var time = time_t(t)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(HTTPDate.months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    @Test func parsesTheRFCExample() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    }

    @Test func roundTrips() {
        for t in [0.0, 951_782_400, 1_800_000_123] { #expect(HTTPDate.parse(Self.format(t)) == t) }
    }

    @Test(arguments: ["", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
                      "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT"])
    func rejects(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}

/// One canned answer (or failure) for every request; counts the calls.
final class StubTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let result: Result<HTTPResponse, KCAuthError>
    private var count = 0
    init(_ response: HTTPResponse) { result = .success(response) }
    init(error: KCAuthError) { result = .failure(error) }
    var calls: Int { lock.withLock { count } }
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        lock.withLock { count += 1 }
        return try result.get()
    }
}
