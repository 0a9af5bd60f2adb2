import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// A secret is a type whose every printable form is redacted (`[kind: N bytes, sha256 8hex]`);
/// only `reveal()` gives the value.
@Suite struct SecretTests {
    static let value = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl-_"
    let secret = Secret(.accessToken, value)

    /// SHA-256("abc") begins ba7816bf (FIPS 180-2, appendix B.1).
    @Test func theRedactedFormNamesTheKindTheLengthAndTheDigestsStart() {
        #expect(Secret(.refreshToken, "abc").redacted == "[refresh_token: 3 bytes, sha256 ba7816bf]")
        #expect(Secret(.passphrase, "é").redacted.hasPrefix("[passphrase: 2 bytes, sha256 "))
        #expect(secret.reveal() == Self.value)
    }

    @Test func everyPrintableFormIsRedacted() throws {
        var dumped = ""
        dump(secret, to: &dumped)
        var dumpedState = ""
        var state = SessionFixtures.state()
        state.accessToken = secret
        dump(state, to: &dumpedState)
        let mirror = Mirror(reflecting: secret).children.map { "\($0.value)" }.joined()
        let encoded = String(decoding: try JSONEncoder().encode([secret]), as: UTF8.self)
        let forms = ["\(secret)", String(describing: secret), String(reflecting: secret), secret.description, secret.debugDescription,
                     "\([secret])", "\(Optional(secret) as Any)", dumped, dumpedState, "\(IssuedToken(state))", mirror, encoded]
        for form in forms {
            #expect(!form.contains(Self.value) && !form.contains("c2lnbmF0dXJl"), "\(form)")
            #expect(form.contains("[access_token: \(Self.value.utf8.count) bytes, sha256 "), "\(form)")
        }
    }

    @Test func equalityIsTheValueWhateverTheKind() {
        #expect(Secret(.refreshToken, "x") == Secret(.token, "x"))
        #expect(Secret(.refreshToken, "x") != Secret(.refreshToken, "y"))
    }

    @Test func wireTextKeepsEachPartsKind() {
        let header: WireText = "Bearer \(secret)"
        #expect(header.reveal() == "Bearer " + Self.value)
        #expect(header.redacted == "Bearer " + secret.redacted && "\(header)" == header.redacted)
        #expect(header.holdsSecret && !WireText("plain").holdsSecret)
    }

    /// A secret in a form or a query is percent-encoded on the wire, and redacted by its own
    /// value's digest (the same as in the answer that issued it).
    @Test func aFormSendsSecretsEncodedAndPrintsThemRedacted() {
        let code = Secret(.authorizationCode, "a+b/c d")
        let form = [FormField("grant_type", "authorization_code"), FormField("code", code)].encoded
        #expect(form.reveal() == "grant_type=authorization_code&code=a%2Bb%2Fc%20d")
        #expect(form.redacted == "grant_type=authorization_code&code=" + code.redacted)
    }

    /// A provider's error text that echoes what was sent is shown with the secrets redacted, in
    /// either spelling.
    @Test func anEchoedSecretIsRedactedAsSentAndEncoded() {
        let rt = Secret(.refreshToken, "r+t/1")
        let text = OAuthHTTP.redact("bad token r+t/1 (r%2Bt%2F1)", secretsIn: [FormField("refresh_token", rt)])
        #expect(text == "bad token \(rt.redacted) (\(rt.redacted))")
    }
}
