import Foundation
import Testing
@testable import KCAuth
import KCAuthCrypto
import KCAuthTestSupport

/// `kcauth token`'s use case gives the DPoP prover of the session its token came from: the
/// key is the library's to read, never the command's.
@Suite struct TokenOrSignInTests {
    /// A signed-in DPoP profile: a bound access token and its key in the keyring.
    static func dpopSession() throws -> (FakeAdapters, DPoPKey) {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let key = try DPoPKey.generate(.ES256)
        var state = SessionFixtures.state()
        state.tokenType = "DPoP"
        state.dpop = key.stored
        try SessionFixtures.store(state, in: fake.keyring)
        return (fake, key)
    }

    static func part(_ jwt: String, _ index: Int) throws -> [String: Any] {
        var text = String(jwt.split(separator: ".")[index]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aDPoPBoundTokenComesWithAProverHoldingTheSessionsKey() throws {
        let (fake, key) = try Self.dpopSession()
        let context = KCAuthContext(adapters: fake.adapters)
        let answer = try context.tokenOrSignIn(try context.resolve(), kubectl: false)
            .run(TokenProvider.Request(), caller: SignInCaller(stdinIsTerminal: false, stderrIsTerminal: false), canAsk: false, notify: { Issue.record("\($0)") })
        #expect(answer.token.tokenType == "DPoP" && answer.signedIn == nil)
        let readsBefore = fake.keyring.reads
        let proof = try answer.prover().proof(method: "POST", url: "https://api.example.com/x", accessToken: answer.token.accessToken)
        #expect(fake.keyring.reads == readsBefore + 1, "the key is read when a proof is asked for")
        let header = try Self.part(proof.reveal(), 0), claims = try Self.part(proof.reveal(), 1)
        let jwk = try JSONDecoder().decode(JWK.self, from: JSONSerialization.data(withJSONObject: try #require(header["jwk"])))
        #expect(header["typ"] as? String == "dpop+jwt" && jwk == key.jwk, "signed with the session's key (RFC 9449 §4.2)")
        #expect(claims["htm"] as? String == "POST" && claims["htu"] as? String == "https://api.example.com/x" && claims["ath"] != nil)
    }

    @Test func aSessionWithoutAKeyHasNoProverAndSaysSignIn() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
        let context = KCAuthContext(adapters: fake.adapters)
        let answer = try context.tokenOrSignIn(try context.resolve(), kubectl: false)
            .run(TokenProvider.Request(), caller: SignInCaller(stdinIsTerminal: false, stderrIsTerminal: false), canAsk: false, notify: { _ in })
        #expect { try answer.prover() } throws: { ($0 as? KCAuthError)?.remedy == .signIn(profile: "default") }
        fake.keyring.items["default"] = nil
        #expect { try context.dpopProver(try context.resolve()) } throws: { ($0 as? KCAuthError)?.code == .loginRequired }
    }
}
