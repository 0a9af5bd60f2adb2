/// Every setting kcauth reads, one row each: the configuration key, the flag, the environment
/// variable, how the value is checked, whether `login` remembers it, whether it binds the
/// runtime cache, and its documentation line. The full program's profile reader checks values
/// through it, the front's scanner takes its key list and checks from it, and the docs tests
/// compare docs/configuration.md with it. Adding a setting: a row here, and the code that uses
/// the value.
public enum SettingsCatalogue {
    /// The global key naming the profile used when neither `--profile` nor `KCAUTH_PROFILE` is given.
    public static let defaultProfile = SettingRow(
        key: "default_profile", environment: nil, remembered: false, check: .profileName,
        summary: "the profile used when neither --profile nor KCAUTH_PROFILE is given (kcauth use NAME)")

    /// `--profile` / `KCAUTH_PROFILE`: which section is used (not a key inside one).
    public static let profile = SettingRow(
        key: nil, flag: "--profile", environment: "KCAUTH_PROFILE", remembered: false, check: .profileName,
        summary: "the profile to use")

    /// The keys of a profile section, in the order the front keeps their values.
    public static let profileRows: [SettingRow] = [
        SettingRow(key: "issuer", flag: "--issuer", environment: "KCAUTH_ISSUER", bindsCache: true, check: .issuer,
                   summary: "the OpenID Provider's issuer URL (Keycloak: https://HOST/realms/REALM)"),
        SettingRow(key: "client_id", flag: "--client-id", environment: "KCAUTH_CLIENT_ID", bindsCache: true,
                   summary: "the client registered for kcauth"),
        SettingRow(key: "scope", flag: "--scope", summary: "what login requests; openid is always added"),
        SettingRow(key: "port", flag: "--port", check: .port, summary: "fixed loopback port for the redirect; absent or 0: any free port"),
        SettingRow(key: "ca_file", flag: "--ca-file", environment: "KCAUTH_CA_FILE",
                   summary: "extra CA certificates (PEM) to trust for the provider's TLS"),
        SettingRow(key: "storage", flag: "--storage", environment: "KCAUTH_STORAGE", bindsCache: true, check: .storage,
                   summary: "where the session is kept: keyring (the default) or file"),
        SettingRow(key: "flow", flag: "--flow", environment: "KCAUTH_FLOW", check: .flow, summary: "auto, browser or device"),
        SettingRow(key: "browser_command", flag: "--browser-command", check: .browserCommand,
                   summary: "how to start the browser: split like a shell would, %s is the URL"),
        SettingRow(key: "hosts", check: .hosts, summary: "servers the git and docker helpers answer for (host or host:port)"),
        SettingRow(key: "username", check: .username, summary: "the user name the git and docker helpers give with the token (default oauth2)"),
        // The sticky authorization parameters (KCAuthCore's StickyParameter): `login` makes their
        // options from these rows.
        SettingRow(key: "idp_hint", flag: "--idp-hint", summary: "Keycloak's kc_idp_hint: the identity provider to go to",
                   optionValue: "ALIAS", optionHelp: "Go straight to this identity provider (Keycloak kc_idp_hint), remembered for the profile"),
        SettingRow(key: "acr_values", flag: "--acr-values", summary: "the authentication context classes to ask for",
                   optionValue: "VALUES", optionHelp: "Authentication context classes to ask for (acr_values), remembered for the profile"),
        SettingRow(key: "ui_locales", flag: "--ui-locales", summary: "the languages of the sign-in pages",
                   optionValue: "LOCALES", optionHelp: "Languages for the sign-in pages, e.g. 'de en' (ui_locales), remembered for the profile"),
        SettingRow(key: "grant", flag: "--client-credentials", check: .grant,
                   summary: "client_credentials: the profile signs in as the client itself"),
        SettingRow(key: "client_secret_env", environment: "KCAUTH_CLIENT_SECRET",
                   summary: "the environment variable that holds the client secret"),
        SettingRow(key: "client_secret_file", flag: "--client-secret-file", summary: "the file that holds the client secret"),
        SettingRow(key: "client_auth_method", check: .clientAuthMethod,
                   summary: "how the secret is sent: client_secret_basic or client_secret_post"),
        SettingRow(key: "client_key", flag: "--client-key", summary: "the private key (PEM) that signs client assertions"),
        SettingRow(key: "client_key_id", flag: "--client-key-id", summary: "the kid of the client key"),
        SettingRow(key: "client_key_alg", flag: "--client-key-alg", summary: "RS256, PS256 or ES256"),
        SettingRow(key: "client_assertion_env", environment: "KCAUTH_CLIENT_ASSERTION",
                   summary: "the environment variable that holds a signed client assertion"),
        SettingRow(key: "client_assertion_file", flag: "--client-assertion-file", summary: "the file that holds a signed client assertion"),
        signInNotification,
        SettingRow(key: "dpop", flag: "--dpop-mode", environment: "KCAUTH_DPOP", check: .dpop,
                   summary: "no, yes (DPoP-bound tokens, RFC 9449) or refresh-only (only the refresh token bound); login --dpop sets yes"),
        SettingRow(key: "par", flag: "--par", check: .par,
                   summary: "auto, always or never: push the authorization request (RFC 9126); auto when the provider offers it"),
    ]

    /// Also a global key (before the first section): the profile's value wins.
    public static let signInNotification = SettingRow(
        key: "sign_in_notification", remembered: false, check: .switchOff,
        summary: "off (or 0, no, false): a caller that cannot sign in shows no desktop notification (also global)")

    /// The keys allowed before the first section.
    public static let globalKeys = [defaultProfile.key!, signInNotification.key!]

    /// Settings that live only in the environment.
    public static let tokenCache = SettingRow(
        key: nil, environment: "KCAUTH_TOKEN_CACHE", remembered: false, check: .switchOff,
        summary: "off (or 0, no, false) turns the runtime token cache off")

    /// Profile keys that each name a client credential: a profile may name at most one.
    public static let credentialKeys = ["client_secret_env", "client_secret_file", "client_key", "client_assertion_env", "client_assertion_file"]

    /// The environment variables holding a client credential itself (never saved): at most one may be set.
    public static let credentialVariables = ["KCAUTH_CLIENT_SECRET", "KCAUTH_CLIENT_ASSERTION"]

    public static var profileKeys: [String] { profileRows.map { $0.key! } }

    /// The row of a profile key.
    public static func row(key: String) -> SettingRow? {
        for row in profileRows where row.key == key { return row }
        return nil
    }

    /// Every row: the profile's keys, then the rows that are not profile keys.
    /// Where the encrypted store's passphrase comes from, for callers without a terminal (the path,
    /// never the passphrase; read only when the store must be opened).
    public static let passphraseFile = SettingRow(
        key: nil, flag: "--passphrase-file", environment: "KCAUTH_PASSPHRASE_FILE", remembered: false,
        summary: "a file (mode 0600) holding the encrypted store's passphrase")

    public static var all: [SettingRow] { [profile, defaultProfile] + profileRows + [tokenCache, passphraseFile] }
}
