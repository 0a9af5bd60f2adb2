/// What a login does with the login-only settings of a resolved profile (`LoginSettingsFlags`).
extension ResolvedProfile {
    /// The sticky ones go into what the login remembers: the authorization parameters,
    /// where the client's credentials come from, and the client-credentials grant.
    public func rememberLoginSettings(in settings: inout ProfileSettings) {
        settings.sticky = stickyValues
        settings.clientAuth = clientAuth.value.isConfidential ? clientAuth.value : nil
        settings.grant = grant?.value
        settings.dpop = dpop.value == .no ? nil : dpop.value
        settings.par = par.value == .auto ? nil : par.value
    }

    /// The authorization request's parameters: this profile's sticky ones with the one-off
    /// ones of this login (`prompt`, `login_hint`, `max_age`, extra parameters).
    public func authorizationParameters(oneOff: AuthorizationParameters) -> AuthorizationParameters {
        var parameters = oneOff
        parameters.sticky = stickyValues
        return parameters
    }

    /// The sticky parameters' values, as the profile keeps them.
    public var stickyValues: [StickyParameter: String] { sticky.mapValues(\.value) }

    public var usesClientCredentials: Bool { grant?.value == ProfileSettings.clientCredentialsGrant }
}
