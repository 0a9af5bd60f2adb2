import KCAuthContract
import KCAuthCore

/// `login`'s authorization request parameters (`AuthorizationParameters`) and `--force` (skip
/// "already signed in", `AlreadySignedIn`).
/// The sticky ones (`--idp-hint`, `--acr-values`, `--ui-locales`: `StickyParameter`) are
/// remembered per profile (they describe how this profile signs in), their options made from
/// their catalogue rows; `--prompt`, `--login-hint`, `--max-age` and `--param` count for one login.
struct LoginRequestOptions {
    /// The option of a sticky parameter, from its catalogue row.
    static func option(_ parameter: StickyParameter) -> OptionSpec { OptionSpec(parameter.row) }

    static let loginHint = OptionSpec("login-hint", value: "USER", help: "Suggest the account to sign in with (login_hint), this login only")
    static let prompt = OptionSpec("prompt", value: "VALUE", help: "Ask the provider to prompt: login, consent, select_account or none",
                                   completes: .choices(AuthorizationParameters.promptValues))
    static let maxAge = OptionSpec("max-age", value: "SECONDS",
                                   help: "Sign in again if the last sign-in at the provider is older (max_age; auth_time is checked)")
    static let param = OptionSpec("param", value: "NAME=VALUE", help: "Add a parameter to the authorization request (repeatable)")
    static let force = OptionSpec("force", help: "Sign in even if the profile's session is still valid")

    /// The leading sticky ones, the one-off ones, the other sticky ones (as in the request).
    static let options = StickyParameter.leading.map(option) + [loginHint, prompt, maxAge]
        + StickyParameter.trailing.map(option) + [param, force]

    /// The one-off parameters of this login.
    static func oneOff(_ c: ParsedCommand) throws -> AuthorizationParameters {
        for (option, value) in [(loginHint, c.value(loginHint)), (prompt, c.value(prompt)), (maxAge, c.value(maxAge))] {
            if let value { try InputText.check(value, from: "--" + option.long) }
        }
        for value in c.allValues(param) { try InputText.check(value, from: "--param") }
        return AuthorizationParameters(
            loginHint: c.value(loginHint).flatMap { $0.isEmpty ? nil : $0 },
            prompt: try c.value(prompt).map(OptionValues.prompt),
            maxAge: try c.value(maxAge).map(OptionValues.maxAge),
            extra: try c.allValues(param).map(OptionValues.parameter))
    }

    /// The sticky parameters, for the settings resolver; an empty value clears the saved one.
    static func apply(_ c: ParsedCommand, to flags: inout LoginSettingsFlags) throws {
        for parameter in StickyParameter.allCases {
            flags.sticky[parameter] = try SettingsOptions.text(c, option(parameter))
        }
    }
}
