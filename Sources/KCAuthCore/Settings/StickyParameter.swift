import KCAuthContract

/// The authorization request parameters `login` remembers per profile: they
/// describe how the profile signs in, not one login. Keycloak's `kc_idp_hint` (straight to a
/// brokered identity provider), `acr_values` and `ui_locales` (OpenID Connect Core §3.1.2.1).
///
/// One family: the profile, the resolved profile, the login's flags, the
/// authorization request and "already signed in" each hold them as `[StickyParameter: …]` and
/// loop over `allCases`. Adding one: a case here and its row in `SettingsCatalogue` (its key,
/// flag, option text), then `make docs`.
public enum StickyParameter: String, CaseIterable, Sendable {
    case idpHint = "idp_hint"
    case acrValues = "acr_values"
    case uiLocales = "ui_locales"

    /// The profile key, also the setting's name where a value came from (`SettingOrigin`).
    public var key: String { rawValue }

    /// The parameter's name in the authorization request.
    public var requestName: String {
        switch self {
        case .idpHint: "kc_idp_hint"
        default: rawValue
        }
    }

    /// Keycloak's hint comes before the one-off parameters (`login_hint`, `prompt`, `max_age`),
    /// in the request and in `login`'s options; the others after them.
    public var leads: Bool { self == .idpHint }

    /// Its row of the settings catalogue: the flag and the option's text.
    public var row: SettingRow {
        guard let row = SettingsCatalogue.row(key: key) else { preconditionFailure("no catalogue row for \(key)") }
        return row
    }

    /// The leading ones, then the others, each in the order of `allCases`.
    public static var leading: [Self] { allCases.filter(\.leads) }
    public static var trailing: [Self] { allCases.filter { !$0.leads } }
}
