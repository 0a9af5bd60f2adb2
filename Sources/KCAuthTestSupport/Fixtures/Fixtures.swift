/// A Keycloak-26-shaped realm at a fixed issuer, with ID tokens signed once (python
/// `cryptography`, RSA-2048, RS256) for a key whose public half is in `jwks`. The JWKS also lists
/// an encryption key with the same modulus, as Keycloak publishes one ("use": "enc").
/// Claims of `idToken`: iss = issuer, aud = azp = "kcauth", sub "u-1", exp 2100-01-01, iat
/// 2023-11-14, nonce = base64url of sixteen 0x01 bytes (what `FixedRandom` produces), at_hash of
/// "at-1", preferred_username "alice". `idTokenRotatedKid` is the same token signed by the same key
/// but naming kid "core-test-rotated", which the JWKS does not list.
public enum Fixtures {
    public static let issuer = "https://sso.example.test/realms/demo"
    public static let nonce = "AQEBAQEBAQEBAQEBAQEBAQ"
    public static let now: Double = 1_763_700_000  // 2025-11-21

    public static let discovery = """
    {"issuer":"https://sso.example.test/realms/demo",
     "authorization_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/auth",
     "token_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/token",
     "introspection_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/token/introspect",
     "userinfo_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/userinfo",
     "end_session_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/logout",
     "jwks_uri":"https://sso.example.test/realms/demo/protocol/openid-connect/certs",
     "check_session_iframe":"https://sso.example.test/realms/demo/protocol/openid-connect/login-status-iframe.html",
     "grant_types_supported":["authorization_code","implicit","refresh_token","password","client_credentials","urn:openid:params:grant-type:ciba","urn:ietf:params:oauth:grant-type:device_code"],
     "response_types_supported":["code","none","id_token","token","id_token token","code id_token","code token","code id_token token"],
     "subject_types_supported":["public","pairwise"],
     "id_token_signing_alg_values_supported":["PS384","RS384","EdDSA","ES384","HS256","HS512","ES256","RS256","HS384","ES512","PS256","PS512","RS512"],
     "userinfo_signing_alg_values_supported":["PS384","RS384","EdDSA","ES384","HS256","HS512","ES256","RS256","HS384","ES512","PS256","PS512","RS512","none"],
     "code_challenge_methods_supported":["plain","S256"],
     "token_endpoint_auth_methods_supported":["private_key_jwt","client_secret_basic","client_secret_post","tls_client_auth","client_secret_jwt"],
     "scopes_supported":["openid","acr","phone","profile","microprofile-jwt","offline_access","roles","address","basic","web-origins","email"],
     "revocation_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/revoke",
     "device_authorization_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/auth/device",
     "pushed_authorization_request_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/ext/par/request",
     "registration_endpoint":"https://sso.example.test/realms/demo/clients-registrations/openid-connect",
     "backchannel_logout_supported":true,"frontchannel_logout_supported":true,
     "require_pushed_authorization_requests":false,"tls_client_certificate_bound_access_tokens":true,
     "mtls_endpoint_aliases":{"token_endpoint":"https://sso.example.test/realms/demo/protocol/openid-connect/token"},
     "authorization_response_iss_parameter_supported":true}
    """

    public static let tokenEndpoint = issuer + "/protocol/openid-connect/token"
    public static let jwksURI = issuer + "/protocol/openid-connect/certs"
    public static let authorizationEndpoint = issuer + "/protocol/openid-connect/auth"
    public static let parEndpoint = issuer + "/protocol/openid-connect/ext/par/request"
    public static let requestURI = "urn:ietf:params:oauth:request_uri:fixture"

    public static let modulus = "15cFT__jwQAXOyg63FU7BIIMmqj5t7xQXwgd_gYkvWicEXX18qu2iqA9JdOdPH0emVRl86AivklZpYVgB_pqOBNiGCqhr7ow0Qrnjgp-HxpFCaYnigf65Na1ABVvir7qucl3ekoM3Vu8Pzis2Jf_Mt3v3s5uazAdIGmhJdHuL6AtLj48IzNvsaJS0_hlDdUXC3-3obqrfkYQWb2ox75YWWo_ykZxC-KH1dMk-jn4iWuTRZBLRNcTSCLnHmbFKCV6ox1eJaNOXm-Vf00ZPGI4fVSJN_y1oM0TMeaTluJmKAU4L5d43y_UKgEwgtOgVqIvFi0GMvBMy3FAxVebNV08tQ"

    public static let jwks = """
    {"keys":[{"kty":"RSA","kid":"core-test-enc","use":"enc","alg":"RSA-OAEP","n":"\(modulus)","e":"AQAB"},
             {"kty":"RSA","kid":"core-test-1","use":"sig","alg":"RS256","n":"\(modulus)","e":"AQAB"}]}
    """

    public static let idToken = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImNvcmUtdGVzdC0xIn0.eyJpc3MiOiJodHRwczovL3Nzby5leGFtcGxlLnRlc3QvcmVhbG1zL2RlbW8iLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjQxMDI0NDQ4MDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJBUUVCQVFFQkFRRUJBUUVCQVFFQkFRIiwiYXpwIjoia2NhdXRoIiwiYXRfaGFzaCI6IlI4UFlhSVFkY1lFZGtTYzlUZUd5aVEiLCJwcmVmZXJyZWRfdXNlcm5hbWUiOiJhbGljZSIsImVtYWlsIjoiYWxpY2VAZXhhbXBsZS50ZXN0IiwibmFtZSI6IkFsaWNlIExpZGRlbGwiLCJ0eXAiOiJJRCJ9.cc8RkWrrwA1KqcPdUCe7FpX1mih9VnBQd0FYm7k0dOH2s6OcEHvnCE-9-eXfe36DSUHjGWHghBsxDdWLq_pu24j66-g-FU13PmLIhyYxb74WQTTwusOub6t9-Rz-IRohpIPACgSG5Jo2cYUUA7KRSM-APE7xJu-0gvfyHjBi0tQr1lO30Biyzn1s5QXHpi7DIdWWgFWJUYO1Wvg2JvIso9vJBZvOorAwtuu9pbE1BPca08J3IGGWAzDnIpVqR29eijedUvB5XKDnKb7wXdemmE68t7eT26Q3Ru5_Q9Z-YTRxMU_KhfnJOGyxkaRsAsMgU5iLsws8EYGtC-HiGfMpkg"

    public static let idTokenRotatedKid = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImNvcmUtdGVzdC1yb3RhdGVkIn0.eyJpc3MiOiJodHRwczovL3Nzby5leGFtcGxlLnRlc3QvcmVhbG1zL2RlbW8iLCJzdWIiOiJ1LTEiLCJhdWQiOiJrY2F1dGgiLCJleHAiOjQxMDI0NDQ4MDAsImlhdCI6MTcwMDAwMDAwMCwibm9uY2UiOiJBUUVCQVFFQkFRRUJBUUVCQVFFQkFRIiwiYXpwIjoia2NhdXRoIiwiYXRfaGFzaCI6IlI4UFlhSVFkY1lFZGtTYzlUZUd5aVEiLCJwcmVmZXJyZWRfdXNlcm5hbWUiOiJhbGljZSIsImVtYWlsIjoiYWxpY2VAZXhhbXBsZS50ZXN0IiwibmFtZSI6IkFsaWNlIExpZGRlbGwiLCJ0eXAiOiJJRCJ9.nnsoRgJ6r0h68bUgVQucQ1O9svahTFWDxOw8ajizLjER3z7OgGLfbpo8ZPCbCgo7acVItDrEbYBYoKCugwsdhL_OprYlG8OJvU9lil0mk_bH5DASVSTX52vnxOWk7xU4Rw1jFY1To_AJ6GcgTEZJIuoorCmqBwffalgn0FK-_8KBItXjAQGZiERNXrSES5EB_c0hC2jwX0cXrLzVuBXkRYBn930Z_7x6U2-WV4zwEndWaKllTMvkD2G6AmCHub9yhqaWIWtMf8KiMRMlE4dfcirElTX2jEyew7lBA_5-2n8HjusjYzS_p4DbiUabGM1ixf3itgJLm4J9SFcqURBUbQ"

    /// The ID token with one signature character changed.
    public static var idTokenTampered: String {
        var chars = Array(idToken)
        chars[chars.count - 5] = chars[chars.count - 5] == "A" ? "B" : "A"
        return String(chars)
    }

    public static func tokenResponse(idToken: String = idToken, accessToken: String = "at-1") -> String {
        """
        {"access_token":"\(accessToken)","expires_in":300,"refresh_expires_in":1800,"refresh_token":"rt-1",
         "token_type":"Bearer","id_token":"\(idToken)","not-before-policy":0,"session_state":"s-1","scope":"openid profile email"}
        """
    }
}
