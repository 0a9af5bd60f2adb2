import Testing
@testable import KCAuthCLI
import KCAuthCore

/// Authorization request options (OpenID Connect Core §3.1.2.1): what `--prompt`, `--max-age` and
/// `--param` take, and what is refused.
@Suite struct OptionValuesTests {
    @Test(arguments: ["login", "consent", "select_account", "none", "login consent"])
    func promptValuesOfOIDCCore(_ value: String) throws {
        #expect(try OptionValues.prompt(value) == value)
    }

    @Test(arguments: ["", "sometimes", "none login", "login login", "LOGIN"])
    func otherPromptsAreUsageErrors(_ value: String) {
        #expect(throws: KCAuthError.self) { try OptionValues.prompt(value) }
    }

    @Test(arguments: ["-1", "1e3", "0x10", " 5", "", "99999999999", "315360001", "١٢"])
    func maxAgeIsPlainWholeSeconds(_ value: String) {
        #expect(throws: KCAuthError.self) { try OptionValues.maxAge(value) }
    }

    @Test func maxAgeZeroAndTenYears() throws {
        #expect(try OptionValues.maxAge("0") == 0)
        #expect(try OptionValues.maxAge("315360000") == 315_360_000)
    }

    @Test(arguments: ["state=x", "nonce=x", "redirect_uri=x", "client_id=x", "code_challenge=x", "request_uri=x", "prompt=login",
                      "kc_idp_hint=x", "novalue", "=x", "a b=c", "a\u{1}=c"])
    func kcauthsOwnAndMalformedParametersAreRefused(_ raw: String) {
        #expect(throws: KCAuthError.self) { try OptionValues.parameter(raw) }
    }

    @Test func aParameterValueMayContainEqualsSigns() throws {
        #expect(try OptionValues.parameter("claims={\"a\":\"b=c\"}") == .init(name: "claims", value: "{\"a\":\"b=c\"}"))
    }

    @Test func messagesNameTheOption() {
        #expect(throws: KCAuthError(.usage, "--max-age takes a whole number of seconds from 0 to 315360000, not 'x'")) { try OptionValues.maxAge("x") }
        #expect(throws: KCAuthError(.usage, "--port takes a number from 0 to 65535, not '65536'")) { try OptionValues.port("65536") }
    }
}
