import KCAuthCrypto

// Test keys and signed tokens, generated ONCE and pasted here; only public keys are kept.
//
// How they were made (python3 3.11.7, `cryptography` 48.0.0, on the dev box):
// - fresh keys: RSA-2048 "rsa-a", "rsa-b", "rsa-enc"; RSA-1024 "rsa-weak"; P-256 "ec-p256" (plus a
//   second, discarded P-256 key); P-384 "ec-p384". JWK members are base64url without padding,
//   EC coordinates left-padded to the full coordinate size (RFC 7518 §6.2.1.2).
// - claims: {"iss":"https://kc.example/realms/test","sub":"u-1","aud":"kcauth","exp":2000000000,
//   "iat":1700000000,"nonce":"n-0S6_WzA2Mj"}, compact JSON; headers compact JSON.
// - RS*: key.sign(input, PKCS1v15(), SHA256()/SHA384()); PS256: PSS(MGF1(SHA256), salt_length=32),
//   and once with salt_length=PSS.MAX_LENGTH; ES*: key.sign(input, ECDSA(hash)), the DER result
//   split with decode_dss_signature into R || S (32 or 48 bytes each), and once left as DER;
//   HS256: hmac.new(b"shared-secret", input, sha256); none: an empty signature part.
// The RFC 7515 Appendix A.2/A.3 values are copied from the RFC and were checked with the same
// library before being pasted.
enum Fixtures {
    // MARK: Public keys

    static let rsaA = JWK(
        kty: "RSA",
        kid: "rsa-a",
        use: "sig",
        n: "tdLtgGURxrGTF5JxagVKqhED67tJQOv1541hsBKd7gGtpKUqx1bamDQ0aZXxQCLlk1zLKCwEpCMWcMao_RxpTEosiime5XD79N-lnLBZRVa_eGsxSOVblk7tZUY3nQDWUXCkUkr0wLMUA9kKKtKORdA7eULY7lDUlvLEXFD0pwUHa2Z1yuVBkcYBUoqp-7YkvAieBElBSCMliHBnqooaH9EbtfRDjLu-w6VQMdfSufThO_N1DkG6WXbl1vpf_JCfmq1RkBdqLTQrNsghOLLGQS-eacInofgKyx1xRPqXUua1YlDCjitCE1zb21o-zUbu5UTl2qX56sPkswJTsSKKXw",
        e: "AQAB")

    static let rsaB = JWK(
        kty: "RSA",
        kid: "rsa-b",
        use: "sig",
        n: "sewUW7mpRM2oV8CUismzbPHNwVXzAxg4ivhfxLTMlPBXszppBXsOR0_5I1jlXnGjeBMMHgqp2yzFwpmDsMqLaXI9acZnElG5sXX1vfIlamPSJSo25QTeIGCh2BGpre2DuXQGL88eh5bpqV8Swfw2TgrLNqYA5pR9dyLFL6yeIsAa4g0ArvBrd_XPbkD8alJJ8H2StZwsmmsJyzCciydY4mkEH0lXBHnKG4BoveRXNH24vZWUJuo3JPu5pLlGGFyNnig4z-SYkmXzsGB7Y_S5VBkBcoRPpGQowmumWuCxQ9gve2GPsIs348_yH7he9kbp11_OlTEq_ZAKZxrDiZ8nNw",
        e: "AQAB")

    /// An encryption key, as Keycloak publishes next to its signing key.
    static let rsaEnc = JWK(
        kty: "RSA",
        kid: "rsa-enc",
        use: "enc",
        alg: "RSA-OAEP",
        n: "1MWIXOfQXY92LskfJ20JTqaj5Lq1nFMwDB02BDVTc29nB4rAaT_A5WVz0XrEE5WVaB9Mgb99IWJm-NlGudI-LjE3yZ6EzwuR7T6Bv_Nttscv8wIRIgqXz6BHIiLXaGhxJtUz_N9KUnBlErUSFis5If33da7-B4phKaE5AEpH-1MnarmDyGSyZpsxi8PFveaWSCS16GridaVBLvav0Y2lg7CBGVOn2jCzRNC9Hb6DaQc0rMhkiwOSeLTomvj12ZtSdAd68QQzUivcUS8pVwFkpxRsPZSCcl1cFIfRcGGrO409XAAYSvw0CQjwezYzkhP-X5TsgQSuEbf5eW15zR07DQ",
        e: "AQAB")

    /// 1024 bits: below RFC 7518's 2048-bit minimum.
    static let rsaWeak = JWK(
        kty: "RSA",
        kid: "rsa-weak",
        use: "sig",
        n: "y4xcCRwcXARpvgNjsQCJ9IycnGZCMN0ZRIsqsCYVgbdB-Jui3xvltV0IxTAbL262LlgKFsoC4eCvMHd4jdsZX0HI6Sbnjqo15ypB5vszabZ51fpGmYyPWeTwMbeeXvBFoN9_a7ZiFPE2kZsdT3Y7SITfXDxSb9WeqkP4qyYAUF8",
        e: "AQAB")

    static let p256 = JWK(
        kty: "EC",
        kid: "ec-p256",
        use: "sig",
        crv: "P-256",
        x: "CeqF3DrzoAeI0pEcgsZQTUQeZ2c08GsbPWW0-iQsu0M",
        y: "mwN_8yBtB3xx91gmSUmwNnrv7fvHE0_3uPXg2a5XADU")

    static let p384 = JWK(
        kty: "EC",
        kid: "ec-p384",
        use: "sig",
        crv: "P-384",
        x: "yxAZYdPFZA9ZON7qSoXPRsJbxh4w1Vl2QRw1BJct4q5fvOp6wJc2qBQV5R9gj1Fj",
        y: "m_dcBT7Bzl-qCChTr3T8Ry7CUEh9aiio-_6qrwe7ITCeOQMlWUfBKxjreoS9d1IJ")

    /// A JWKS shaped like Keycloak's `/protocol/openid-connect/certs`: RSA-OAEP `enc` key first.
    static let keycloakJWKS = #"""
    {
      "keys": [
        {
          "kid": "rsa-enc",
          "kty": "RSA",
          "alg": "RSA-OAEP",
          "use": "enc",
          "n": "1MWIXOfQXY92LskfJ20JTqaj5Lq1nFMwDB02BDVTc29nB4rAaT_A5WVz0XrEE5WVaB9Mgb99IWJm-NlGudI-LjE3yZ6EzwuR7T6Bv_Nttscv8wIRIgqXz6BHIiLXaGhxJtUz_N9KUnBlErUSFis5If33da7-B4phKaE5AEpH-1MnarmDyGSyZpsxi8PFveaWSCS16GridaVBLvav0Y2lg7CBGVOn2jCzRNC9Hb6DaQc0rMhkiwOSeLTomvj12ZtSdAd68QQzUivcUS8pVwFkpxRsPZSCcl1cFIfRcGGrO409XAAYSvw0CQjwezYzkhP-X5TsgQSuEbf5eW15zR07DQ",
          "e": "AQAB",
          "x5c": [
            "MIICnTCCAYUCBgGS...(truncated; kcauth ignores x5c)"
          ],
          "x5t": "0123456789abcdefghijklmnopq",
          "x5t#S256": "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"
        },
        {
          "kid": "rsa-a",
          "kty": "RSA",
          "alg": "RS256",
          "use": "sig",
          "n": "tdLtgGURxrGTF5JxagVKqhED67tJQOv1541hsBKd7gGtpKUqx1bamDQ0aZXxQCLlk1zLKCwEpCMWcMao_RxpTEosiime5XD79N-lnLBZRVa_eGsxSOVblk7tZUY3nQDWUXCkUkr0wLMUA9kKKtKORdA7eULY7lDUlvLEXFD0pwUHa2Z1yuVBkcYBUoqp-7YkvAieBElBSCMliHBnqooaH9EbtfRDjLu-w6VQMdfSufThO_N1DkG6WXbl1vpf_JCfmq1RkBdqLTQrNsghOLLGQS-eacInofgKyx1xRPqXUua1YlDCjitCE1zb21o-zUbu5UTl2qX56sPkswJTsSKKXw",
          "e": "AQAB",
          "x5c": [
            "MIICnTCCAYUCBgGS...(truncated; kcauth ignores x5c)"
          ],
          "x5t": "0123456789abcdefghijklmnopq",
          "x5t#S256": "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"
        },
        {
          "kid": "ec-p256",
          "kty": "EC",
          "alg": "ES256",
          "use": "sig",
          "crv": "P-256",
          "x": "CeqF3DrzoAeI0pEcgsZQTUQeZ2c08GsbPWW0-iQsu0M",
          "y": "mwN_8yBtB3xx91gmSUmwNnrv7fvHE0_3uPXg2a5XADU"
        }
      ]
    }
    """#

    // MARK: Tokens (claims above)

    /// RS256 by rsa-a.
    static let rs256 = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InJzYS1hIn0.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.eHuGWZS_GhqtI2lYKV1k4xUoWwYf1F9_NwDWTgquTCQhwImj7NpZYF7Uy7I1ghpEOmOkWv5Ukdib6qcpwlPlQJCTZZRQo_67_0JBFdinvf7x9PiwD4p5H8fkoM7immdOXC7d01YeoV31moBPCm_Pfxah6ADDP9xAH0qVydL5pnPoJUcOqBjrXnZF23jrQS_ARJ9OzKNMV3wu40Qg7J4uwZCZ6lJyujrIbjFEhco7j-o0oRE57Si9Btdy0lGWKCD6RYH6JHT1rgdn2GCBQNrhjYJCwcXH9arNGLBUpZcRB5IlyF5eBGTJVNN0x5O9PhbDWFzjiqu5Y2wlto_CoctxNw"

    /// RS384 by rsa-a.
    static let rs384 = "eyJhbGciOiJSUzM4NCIsInR5cCI6IkpXVCIsImtpZCI6InJzYS1hIn0.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.oDKBUQwwABSNd-5n7sqHxb4vCsTxxwgj4A_nLWovjyvckV5Xfjw6dppI1S8YcC8pdSsZPdhgUIB0-_Z-gcGv0i6a-c-MSBGXv6LBL5DN4TQd4shTEtGCOa6AVTqW_zOanuCI6MJDxy59NgS2uPhqBbs7aDU967A0IkuKRKQh5pUmB6Q4zNSlWe2w8Xk8J-vMWDOqrLZVXPj6xouD2iTtXVNayrRF-1YGCHfFquUrWf3LZQ3VzxNJ-ydjb9drZS3AGaLK1jXeQhC67L-6vbpwv6oQlHcTKyB17_VHCeQHRUwdjlTmUyr7jh6Zfz--P74jJ27n9mbjX6dgK8SbOOpg4Q"

    /// RS256 by rsa-b, but its header claims kid rsa-a.
    static let rs256ByB = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InJzYS1hIn0.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.NlWQaUAqxvilnFPqbrkjhY1l3H6nJ-FfCoQfzpS0NAiM-o8LaVyDxdAyeTy6T2HEHQp6X-HYPvyTimR_7YLVl4Pxk4qcy5i-OGF9oJpGqfq92FWDSy56Nra9ynKyJdPwVeUJ32m87QUdjVjcO6cSv_GE_cN-3aW1InXE6d6pnMqtbjfjWGkvoadbUUGXTk2P7HmkkbuQdi9XJHh-AjzRMfCNhUTL2UqhxVwulkmjAMGHG36IbscszO6kjv25UveIUo3ubduQVFcjRs-vPhbHxi1Dg8YvqOfaTOlFm020HM5ciUWvuYFGYGE8QtDAEeNX8N7mMP7SENCRPTd2vlM0tw"

    /// RS256 by the 1024-bit rsa-weak.
    static let rs256Weak = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InJzYS13ZWFrIn0.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.FobhJ8z9-rHWjJNtukRaPemr81gPaAkwgqBE6jp6_JVfBQuunTSgMn5bhnRfql7vnfgkJ2LqM04bodbDAxzTlIL90HBffZznXmIN7XdIoC68OPArPTq4glRFqyV7wRBYzw3VlMGWz9icSmYRnPnli6oZ3Q-xjQjPZTC4gtnXWFA"

    /// PS256 by rsa-a, salt length 32 (RFC 7518 §3.5).
    static let ps256 = "eyJhbGciOiJQUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InJzYS1hIn0.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.hWhlrEolu1RqPzEJKUBJIb07xMigOUsHSFI6qkhtfMKTRtRWeEWoMjMsxom2zOb-HGipylVSYAaf1YfVwcVBspmVXdGgqAcXVMEHM8Xdroa2lU-qBii-268ctxcP2XiAGFWkMT7KwiWc5X-oqMUhcsLVJqKzX3bxkQrHUIRrZl5XapSN0Pp5EYhAK13vKYFt4zwDfrR5g_HsCg11yFKz37nq_fx8wIUGbpUKaLBSvWQkoZtzdeYOum6Xy7aQqFYNVQ_5NI2EzJ9808tDqpSiY0lICZmVuQQHoFXgaHBC8eoW0WcxCKqQ4rbNU328OaasYQSWO6aMsZcWdahsbN0THg"

    /// PS256 by rsa-a with the maximum salt length instead of the hash length.
    static let ps256MaxSalt = "eyJhbGciOiJQUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InJzYS1hIn0.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.RbsCRodS5mENgxe4MNvxay69JJD_iHxbs5BWARTBGhCSvQsJz-CNT-l0B1q_YLvtyra2LHkdM1t0FFhpW_okzwcskY-EsC95Y6iZF5oPFNJBJS1_Uy3HjDZv5DnIrdFpYZtSlbz8smdNQfS4RlfvFlsWOTthlCJcardP0RyuNvh15GYNtXFiye86VTjI6sZit_-cmfBYU2CdxDvVyW_at0Avvtz2wci6sVmOn4p_4uyVjYH2FHHrm3OELfzI4yCFuPRZy3f0SDEl0JzZLS8cBFN_nsHrxSxLTFH-3DUpebESdEJjqSlVpMDOJcjp91g6Hb-ZIBt8B6L8cdK7HsVP7Q"

    /// ES256 by ec-p256, R || S.
    static let es256 = "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImVjLXAyNTYifQ.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.neXTgZdVC780vVSPeXeHnixCKYZr5zlNzfTPzVdzle4CU1jYvOELvoSROhvsShM8BC9vURonY7tPpa5-UmSeJQ"

    /// ES256 by another P-256 key, header kid ec-p256.
    static let es256ByOther = "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImVjLXAyNTYifQ.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.y8L2Cd0fJsrp1e74Ub9F8IWhZ8qmTLfY6uNXz08SYzvlzhbRRTDw8DB2teHndlsagDtWBtiaoBFkzaTiElbFAQ"

    /// ES256 by ec-p256, but with the signature left in DER (a common signer bug).
    static let es256DER = "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImVjLXAyNTYifQ.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.MEYCIQCUespGXAwKkIdRc_37xY1vEHbeNvvDNSswMVqP7NV9qgIhAPbaNgsStUbGJYPv0Rei7D33jcPrC13O9f-FYVHf8YyO"

    /// ES384 by ec-p384, R || S.
    static let es384 = "eyJhbGciOiJFUzM4NCIsInR5cCI6IkpXVCIsImtpZCI6ImVjLXAzODQifQ.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.jZG-6GSqt3s5-N93CMOEQqABp2fzK1STC0qt8WK7BHfFSsIAfem_M88jVcUax9nOp09kJlWdly3e-wzn-7ymd1pP0gS0EX3AiA1mdzl45HdS_4EV1b6mW996iGcPOze2"

    /// HS256 with the secret `shared-secret`.
    static let hs256 = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.FxaUh5Pv9SBgdOw9omfy19U-Nwjp8MnR8edaopHv3ng"

    /// alg none, empty signature.
    static let algNone = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2tjLmV4YW1wbGUvcmVhbG1zL3Rlc3QiLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ."

    // MARK: RFC 7515 Appendix A (known-answer vectors)

    /// RFC 7515 A.2.1 payload, shared by A.2 and A.3: `{"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}`.
    static let rfc7515Payload = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"

    /// RFC 7515 A.2.1: the RSA public key.
    static let rfc7515A2Key = JWK(
        kty: "RSA",
        n: "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
        e: "AQAB")

    /// RFC 7515 A.2.1: the complete RS256 JWS.
    static let rfc7515A2 = "eyJhbGciOiJSUzI1NiJ9." + rfc7515Payload
        + ".cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

    /// RFC 7515 A.3.1: the P-256 public key.
    static let rfc7515A3Key = JWK(
        kty: "EC", crv: "P-256",
        x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")

    /// RFC 7515 A.3.1: the complete ES256 JWS.
    static let rfc7515A3 = "eyJhbGciOiJFUzI1NiJ9." + rfc7515Payload
        + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
}
