import KCAuthCore

/// `login`'s authorization request parameters (issue 11 item 5) and `--force` (item 6).
/// `--idp-hint`, `--acr-values` and `--ui-locales` are remembered per profile (they describe
/// how this profile signs in); `--prompt`, `--login-hint`, `--max-age` and `--param` count for
/// one login.
struct LoginRequestOptions {
    static let idpHint = OptionSpec("idp-hint", value: "ALIAS",
                                    help: "Go straight to this identity provider (Keycloak kc_idp_hint), remembered for the profile")
    static let loginHint = OptionSpec("login-hint", value: "USER", help: "Suggest the account to sign in with (login_hint), this login only")
    static let prompt = OptionSpec("prompt", value: "VALUE", help: "Ask the provider to prompt: login, consent, select_account or none",
                                   completes: .choices(AuthorizationParameters.promptValues))
    static let maxAge = OptionSpec("max-age", value: "SECONDS",
                                   help: "Sign in again if the last sign-in at the provider is older (max_age; auth_time is checked)")
    static let acrValues = OptionSpec("acr-values", value: "VALUES",
                                      help: "Authentication context classes to ask for (acr_values), remembered for the profile")
    static let uiLocales = OptionSpec("ui-locales", value: "LOCALES",
                                      help: "Languages for the sign-in pages, e.g. 'de en' (ui_locales), remembered for the profile")
    static let param = OptionSpec("param", value: "NAME=VALUE", help: "Add a parameter to the authorization request (repeatable)")
    static let force = OptionSpec("force", help: "Sign in even if the profile's session is still valid")

    static let options = [idpHint, loginHint, prompt, maxAge, acrValues, uiLocales, param, force]

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
        flags.idpHint = try SettingsOptions.text(c, idpHint)
        flags.acrValues = try SettingsOptions.text(c, acrValues)
        flags.uiLocales = try SettingsOptions.text(c, uiLocales)
    }
}
