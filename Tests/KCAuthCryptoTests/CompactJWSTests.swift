import KCAuthCrypto
import Testing

@Suite("CompactJWS parsing (RFC 7515 §7.1)")
struct CompactJWSTests {
    @Test("parses header, payload, signing input and signature of a compact JWS")
    func parsesParts() throws {
        let jws = try CompactJWS(Fixtures.rs256)
        #expect(jws.header == JOSEHeader(alg: "RS256", kid: "rsa-a", typ: "JWT"))
        #expect(String(decoding: jws.payload, as: UTF8.self).hasPrefix(#"{"iss":"https://kc.example/realms/test","#))
        let p = parts(Fixtures.rs256)
        #expect(jws.signingInput == Array("\(p[0]).\(p[1])".utf8))
        #expect(jws.signature.count == 256)
    }

    @Test("keeps the signing input exactly as received (RFC 7515 A.2, JSON with CR LF)")
    func rfc7515SigningInput() throws {
        let jws = try CompactJWS(Fixtures.rfc7515A2)
        #expect(jws.header == JOSEHeader(alg: "RS256"))
        #expect(jws.payload == Array("{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}".utf8))
        #expect(jws.signingInput == Array(("eyJhbGciOiJSUzI1NiJ9." + Fixtures.rfc7515Payload).utf8))
    }

    @Test("ignores unknown header members")
    func unknownHeaderMembers() throws {
        let token = replacingHeader(of: Fixtures.rs256, with: #"{"alg":"RS256","kid":"k","x5t":"abc","jku":"https://x","cty":"JWT"}"#)
        #expect(try CompactJWS(token).header == JOSEHeader(alg: "RS256", kid: "k"))
    }

    @Test("accepts an empty signature part, so that alg none is judged by the verifier")
    func emptySignature() throws {
        let jws = try CompactJWS(Fixtures.algNone)
        #expect(jws.header.alg == "none")
        #expect(jws.signature.isEmpty)
    }

    static let header = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8))
    static func encoded(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }

    @Test("rejects malformed compact strings", arguments: [
        "",
        "abc",
        "\(header).e30",                                  // two parts
        "\(header).e30.c2ln.c2ln",                        // four parts (a JWE has five)
        "....",
        ".e30.c2ln",                                      // empty header
        "e$J.e30.c2ln",                                   // header not base64url
        "\(encoded("not json")).e30.c2ln",
        "\(encoded("[1]")).e30.c2ln",                     // header not an object
        "\(encoded("{\"kid\":\"k\"}")).e30.c2ln",         // no alg
        "\(encoded("{\"alg\":256}")).e30.c2ln",           // alg not a string
        "\(encoded("{\"alg\":\"RS256\",\"kid\":7}")).e30.c2ln",
        "\(encoded("{\"alg\":\"RS256\",\"crit\":[\"exp\"],\"exp\":1}")).e30.c2ln", // RFC 7515 §4.1.11
        "\(header).e3+0.c2ln",                            // '+' in the payload
        "\(header).e30.c2=ln",                            // '=' inside the signature
        "\(header) .e30.c2ln",
    ])
    func rejectsMalformed(token: String) {
        #expect(parseFailure(token) == .malformed)
    }

    @Test("error messages never echo the token")
    func messagesDoNotLeakTokens() {
        let token = replacingHeader(of: Fixtures.rs256, with: "not json")
        do {
            _ = try CompactJWS(token)
            Issue.record("parsed a token with a non-JSON header")
        } catch let error as CryptoError {
            #expect(!error.description.contains(parts(token)[1]))
            #expect(!error.description.contains(parts(token)[2]))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
