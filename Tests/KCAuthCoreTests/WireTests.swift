import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

@Suite struct WireTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_763_733_789, "2025-11-21T14:03:09Z"),
        (4_102_444_800, "2100-01-01T00:00:00Z"),
    ])
    func rfc3339RoundTrips(epoch: Double, text: String) {
        #expect(RFC3339.format(epoch) == text)
        #expect(RFC3339.parse(text) == epoch)
    }

    @Test func rfc3339AcceptsOffsetsAndFractionsAndRejectsJunk() {
        #expect(RFC3339.parse("2025-11-21T15:03:09+01:00") == 1_763_733_789)
        #expect(RFC3339.parse("2025-11-21T14:03:09.5Z") == 1_763_733_789.5)
        for bad in ["", "2025-11-21", "2025-13-01T00:00:00Z", "2025-11-21T14:03:09", "2025-11-21T14:03:09Zjunk"] {
            #expect(RFC3339.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func formEncodingEscapesEverythingButUnreserved() {
        #expect(FormEncoding.encode([("scope", "openid profile"), ("redirect_uri", "http://127.0.0.1:1/cb?a=b&c")])
                == "scope=openid%20profile&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb%3Fa%3Db%26c")
        #expect(FormEncoding.decode("a=1+2&b=%C3%A9%2F&a=ignored&flag") == ["a": "1 2", "b": "é/", "flag": ""])
    }

    @Test func keycloakDiscoveryDecodesAndValidates() throws {
        let m = try JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8))
        #expect(m.tokenEndpoint == Fixtures.tokenEndpoint)
        #expect(m.deviceAuthorizationEndpoint == Fixtures.issuer + "/protocol/openid-connect/auth/device")
        #expect(m.authorizationResponseIssParameterSupported == true)
        try Discovery.validate(m, issuer: Fixtures.issuer)
    }

    @Test func discoveryForAnotherIssuerIsRejected() throws {
        let m = try JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8))
        #expect { try Discovery.validate(m, issuer: "https://sso.example.test/realms/other") } throws: {
            ($0 as? KCAuthError)?.code == .invalidResponse
        }
    }

    @Test func plainHTTPEndpointInDiscoveryIsRejected() throws {
        var m = try JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8))
        m.tokenEndpoint = "http://sso.example.test/token"
        #expect(throws: KCAuthError.self) { try Discovery.validate(m, issuer: Fixtures.issuer) }
    }

    @Test func tokenResponseAcceptsStringNumbersAndMissingOptionals() throws {
        let t = try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":"60"}"#.utf8))
        #expect(t.expiresIn == 60 && t.refreshToken == nil && t.idToken == nil)
    }

    @Test func offlineRefreshTokenWithZeroLifetimeHasUnknownExpiry() {
        let t = TokenResponse(accessToken: "a", tokenType: "Bearer", expiresIn: 300, refreshToken: "r", refreshExpiresIn: 0)
        let m = ProviderMetadata(issuer: Fixtures.issuer, authorizationEndpoint: "x", tokenEndpoint: "t", jwksURI: "j")
        let s = AuthState(issuer: Fixtures.issuer, clientID: "kcauth", tokens: t, requestedScope: "openid offline_access",
                          endpoints: ProviderEndpoints(m), now: 1000)
        #expect(s.refreshExpiresAt == nil)
        #expect(s.scope == "openid offline_access", "RFC 6749 §5.1: the requested scope when none is returned")
    }

    @Test func authStateRoundTripsThroughJSON() throws {
        let t = TokenResponse(accessToken: "a", tokenType: "Bearer", expiresIn: 300, refreshToken: "r", idToken: "i", scope: "openid")
        let m = ProviderMetadata(issuer: Fixtures.issuer, authorizationEndpoint: "x", tokenEndpoint: "t", jwksURI: "j")
        let s = AuthState(issuer: Fixtures.issuer, clientID: "kcauth", tokens: t, requestedScope: "openid", endpoints: ProviderEndpoints(m), now: 1000)
        #expect(try AuthState.decode(try s.encoded(), profile: "p") == s)
    }

    @Test func damagedStateMeansLoginRequired() {
        #expect { try AuthState.decode("{not json", profile: "p") } throws: { ($0 as? KCAuthError)?.code == .loginRequired }
    }
}
