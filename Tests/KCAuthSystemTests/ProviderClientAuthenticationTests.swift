import Foundation
import KCAuthCore
import KCAuthCrypto
import Testing
@testable import KCAuthSystem

/// kcauth's own client authentication — form-encoded Basic, post, and assertions signed by
/// JWSSigner — against the real test provider, through libcurl. Run by
/// Tests/Integration/test_client_authentication_swift.py, which starts the provider and sets
/// KCAUTH_TEST_ISSUER; skipped (not passed) when that variable is absent.
@Suite("Client authentication against the test provider", .enabled(if: ProcessInfo.processInfo.environment["KCAUTH_TEST_ISSUER"] != nil))
struct ProviderClientAuthenticationTests {
    let issuer = ProcessInfo.processInfo.environment["KCAUTH_TEST_ISSUER"] ?? ""
    var tokenEndpoint: String { issuer + "/protocol/openid-connect/token" }
    let keys = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Provider/kcprovider/client_keys").standardized.path

    func grant(_ clientID: String, _ authentication: ClientAuthentication) throws -> TokenResponse {
        let authenticator = ClientAuthenticator(clientID: clientID, authentication: authentication,
                                                clock: SystemClock(), random: SecureRandom())
        return try ClientCredentialsGrant(http: OAuthHTTP(CurlTransport()))
            .requestToken(tokenEndpoint: tokenEndpoint, scope: "profile", authenticator: authenticator)
    }

    func signer(_ file: String, _ algorithm: JWSAlgorithm, kid: String) throws -> JWSSigner {
        let pem = try [UInt8](Data(contentsOf: URL(fileURLWithPath: keys + "/" + file)))
        return try JWSSigner(key: PrivateKey(pem: pem), algorithm: algorithm, keyID: kid)
    }

    /// The secret of realm.py's kcauth-confidential: '+', ' ', '%', ':' and 'é' all need the
    /// RFC 6749 §2.3.1 form encoding inside Basic.
    let secret = ClientSecret("s3cret:+/ &%=é")

    @Test func clientSecretBasicAndPostAreAccepted() throws {
        let metadata = try OAuthHTTP(CurlTransport()).getJSON(ProviderMetadata.self, from: issuer + "/.well-known/openid-configuration", what: "discovery")
        let method = try ClientSecretMethod.preferred(advertised: metadata.tokenEndpointAuthMethodsSupported)
        #expect(method == .basic)
        #expect(try grant("kcauth-confidential", method.authentication(secret)).accessToken.reveal().split(separator: ".").count == 3)
        #expect(try !grant("kcauth-confidential", .clientSecretPost(secret)).accessToken.isEmpty)
    }

    @Test func aWrongSecretIsInvalidClientWithAHint() throws {
        #expect {
            try grant("kcauth-confidential", .clientSecretBasic(ClientSecret("wrong")))
        } throws: { error in
            guard let error = error as? KCAuthError else { return false }
            return error.code == .provider && error.oauthError == .invalidClient && error.hint?.contains("client secret") == true
        }
    }

    @Test(arguments: [
        ("kcauth-jwt-rsa.pem", JWSAlgorithm.RS256, "kcauth-jwt-rsa"),
        ("kcauth-jwt-rsa.pem", .PS256, "kcauth-jwt-rsa"),
        ("kcauth-jwt-ec.pem", .ES256, "kcauth-jwt-ec"),
    ])
    func signedAssertionsAreAcceptedAgainAndAgain(_ file: String, _ algorithm: JWSAlgorithm, _ kid: String) throws {
        // Each request signs a new assertion with a fresh jti: the provider refuses replays.
        let authentication = ClientAuthentication.privateKeyJWT(try signer(file, algorithm, kid: kid))
        for _ in 0..<2 {
            #expect(try grant("kcauth-jwt", authentication).tokenType.lowercased() == "bearer")
        }
    }

    @Test func anAssertionSignedWithAnotherKeyIsRefused() throws {
        // The platform's key, under kcauth-jwt's kid: the signature does not verify.
        let wrong = ClientAuthentication.privateKeyJWT(try signer("platform.pem", .RS256, kid: "kcauth-jwt-rsa"))
        #expect { try grant("kcauth-jwt", wrong) } throws: { ($0 as? KCAuthError)?.oauthError == .invalidClient }
    }
}
