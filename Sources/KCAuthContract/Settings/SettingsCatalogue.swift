/// Every setting kcauth reads, one row each: the configuration key, the flag and its option's
/// text, the environment variable, how the value is checked, whether `login` remembers it,
/// whether it binds the runtime cache, and its documentation line. The command line makes its
/// options from the rows, the full program's profile reader and writer loop over them, the
/// resolver takes their variables from them, the front's scanner takes its key list and checks
/// from them, and the docs (docs/configuration.md's table, the man page) are generated from
/// them. Adding a setting: a row here (and in `profileRows` for a profile key), and the code
/// that uses the value (docs/development.md, "Where does a change go").
public enum SettingsCatalogue {
    /// The global key naming the profile used when neither `--profile` nor `KCAUTH_PROFILE` is given.
    public static var defaultProfile: SettingRow { SettingRow(
        key: "default_profile", environment: nil, remembered: false, check: .profileName,
        summary: "the profile used when neither --profile nor KCAUTH_PROFILE is given (kcauth use NAME)") }

    /// `--profile` / `KCAUTH_PROFILE`: which section is used (not a key inside one).
    public static var profile: SettingRow { SettingRow(
        key: nil, flag: "--profile", environment: "KCAUTH_PROFILE", remembered: false, check: .profileName,
        summary: "the profile to use", optionValue: "NAME", optionDefault: "default", optionHelp: "Profile to use") }

    // The keys of a profile section (`profileRows` keeps their order).
    public static var issuer: SettingRow { SettingRow(
        key: "issuer", flag: "--issuer", environment: "KCAUTH_ISSUER", bindsCache: true, check: .issuer,
        summary: "the OpenID Provider's issuer URL (Keycloak: https://HOST/realms/REALM)",
        optionValue: "URL", optionHelp: "OpenID Provider issuer URL") }
    public static var clientID: SettingRow { SettingRow(
        key: "client_id", flag: "--client-id", environment: "KCAUTH_CLIENT_ID", bindsCache: true,
        summary: "the client registered for kcauth", optionValue: "ID", optionHelp: "OAuth client id of a public client") }
    public static var scope: SettingRow { SettingRow(
        key: "scope", flag: "--scope", summary: "what login requests; openid is always added",
        optionValue: "SCOPES", optionDefault: "openid profile email", optionHelp: "Scopes to request; openid is always added") }
    public static var port: SettingRow { SettingRow(
        key: "port", flag: "--port", check: .port, summary: "fixed loopback port for the redirect; absent or 0: any free port",
        optionValue: "N", optionDefault: "0", optionHelp: "Loopback port for the redirect (0: any free port)") }
    public static var caFile: SettingRow { SettingRow(
        key: "ca_file", flag: "--ca-file", environment: "KCAUTH_CA_FILE", isPath: true,
        summary: "extra CA certificates (PEM) to trust for the provider's TLS",
        optionValue: "PEM", optionHelp: "Trust the CA certificates in this file for the provider's TLS") }
    public static var storage: SettingRow { SettingRow(
        key: "storage", flag: "--storage", environment: "KCAUTH_STORAGE", bindsCache: true, check: .storage,
        summary: "where the session is kept: `\(StorageKind.keyring.rawValue)` (the default, the desktop keyring), "
            + "`\(StorageKind.encrypted.rawValue)` (a file sealed with a passphrase) or `\(StorageKind.file.rawValue)` (plaintext); "
            + "`\(StorageKind.memory.rawValue)` only for one login, never remembered",
        optionValue: "KIND", optionDefault: StorageKind.keyring.rawValue, optionHelp: "Where to keep the session, remembered per profile") }
    public static var flow: SettingRow { SettingRow(
        key: "flow", flag: "--flow", environment: "KCAUTH_FLOW", check: .flow,
        summary: "how to sign in: " + ChoiceWords.or(ChoiceWords.words(FlowSetting.self).map { "`\($0)`" })
            + " (`\(FlowSetting.auto.rawValue)`: the browser where one can be shown, else the device flow)",
        optionValue: "MODE", optionHelp: "How to sign in, remembered for the profile") }
    public static var browserCommand: SettingRow { SettingRow(
        key: "browser_command", flag: "--browser-command", check: .browserCommand,
        summary: "how to start the browser: split like a shell would, %s is the URL", optionValue: "CMD",
        optionHelp: "Start the browser with this command and its arguments, split like a shell would; %s is the URL (appended if absent); remembered for the profile, '' forgets") }
    public static var hosts: SettingRow { SettingRow(
        key: "hosts", handEdited: true, check: .hosts, summary: "servers the git and docker helpers answer for (host or host:port)") }
    public static var username: SettingRow { SettingRow(
        key: "username", handEdited: true, check: .username,
        summary: "the user name the git and docker helpers give with the token (default oauth2)") }
    // The sticky authorization parameters (KCAuthCore's StickyParameter): `login` makes their
    // options from these rows.
    public static var idpHint: SettingRow { SettingRow(
        key: "idp_hint", flag: "--idp-hint", summary: "Keycloak's kc_idp_hint: the identity provider to go to",
        optionValue: "ALIAS", optionHelp: "Go straight to this identity provider (Keycloak kc_idp_hint), remembered for the profile") }
    public static var acrValues: SettingRow { SettingRow(
        key: "acr_values", flag: "--acr-values", summary: "the authentication context classes to ask for",
        optionValue: "VALUES", optionHelp: "Authentication context classes to ask for (acr_values), remembered for the profile") }
    public static var uiLocales: SettingRow { SettingRow(
        key: "ui_locales", flag: "--ui-locales", summary: "the languages of the sign-in pages",
        optionValue: "LOCALES", optionHelp: "Languages for the sign-in pages, e.g. 'de en' (ui_locales), remembered for the profile") }
    public static var grant: SettingRow { SettingRow(
        key: "grant", flag: "--client-credentials", check: .grant,
        summary: "`\(SettingCheck.clientCredentialsGrant)`: the profile signs in as the client itself",
        optionHelp: "Sign in as the client itself, with no person (client credentials grant; CI, services)") }
    public static var clientSecretEnv: SettingRow { SettingRow(
        key: "client_secret_env", environment: "KCAUTH_CLIENT_SECRET", summary: "the environment variable that holds the client secret") }
    public static var clientSecretFile: SettingRow { SettingRow(
        key: "client_secret_file", flag: "--client-secret-file", isPath: true, summary: "the file that holds the client secret",
        optionValue: "FILE", optionHelp: "Read the client secret from this file (or set \(clientSecretEnv.environment!))") }
    public static var clientAuthMethod: SettingRow { SettingRow(
        key: "client_auth_method", check: .clientAuthMethod,
        summary: "how the secret is sent: \(ChoiceWords.or(ChoiceWords.words(ClientSecretMethod.self).map { "`\($0)`" }))") }
    public static var clientKey: SettingRow { SettingRow(
        key: "client_key", flag: "--client-key", isPath: true, summary: "the private key (PEM) that signs client assertions",
        optionValue: "FILE", optionHelp: "Sign a fresh client assertion with this PEM private key for each token request (private_key_jwt)") }
    public static var clientKeyID: SettingRow { SettingRow(
        key: "client_key_id", flag: "--client-key-id", summary: "the kid of the client key",
        optionValue: "KID", optionHelp: "The key id (kid) the provider knows the client key by") }
    public static var clientKeyAlgorithm: SettingRow { SettingRow(
        key: "client_key_alg", flag: "--client-key-alg", summary: "RS256, PS256 or ES256",
        optionValue: "ALG", optionHelp: "Signing algorithm for the client key (default: RS256 for RSA, ES256 for EC)") }
    // A platform's assertion (federated client authentication). `login` keeps its source as
    // `client_assertion_from`; `client_assertion_env` and `client_assertion_file` are the older
    // spellings of `env:` and `file:`, still read, and rewritten as `client_assertion_from`.
    public static var clientAssertionEnv: SettingRow { SettingRow(
        key: "client_assertion_env", environment: "KCAUTH_CLIENT_ASSERTION",
        summary: "older spelling of client_assertion_from = env:NAME (login writes client_assertion_from)") }
    public static var clientAssertionFile: SettingRow { SettingRow(
        key: "client_assertion_file", flag: "--client-assertion-file", isPath: true,
        summary: "older spelling of client_assertion_from = file:PATH (login writes client_assertion_from)",
        optionValue: "FILE",
        optionHelp: "Short for --client-assertion-from file:FILE (or set \(clientAssertionEnv.environment!))") }
    public static var clientAssertionFrom: SettingRow { SettingRow(
        key: "client_assertion_from", flag: "--client-assertion-from", check: .clientAssertionSource,
        summary: "where a platform's signed client assertion comes from, fetched again for each token request "
            + "(\(ChoiceWords.or(AssertionSource.forms)))",
        optionValue: "SOURCE",
        optionHelp: "Authenticate the client with a platform's signed assertion (federated client authentication), "
            + "fetched again for each token request (\(ChoiceWords.or(AssertionSource.forms)))") }
    public static var clientAssertionAudience: SettingRow { SettingRow(
        key: "client_assertion_audience", flag: "--client-assertion-audience",
        summary: "the aud asked of github-actions (and given to a command: source); default the provider's issuer",
        optionValue: "AUD",
        optionHelp: "The audience (aud) to ask the platform for (default: the provider's issuer, what Keycloak checks)") }
    public static var clientAssertionType: SettingRow { SettingRow(
        key: "client_assertion_type", flag: "--client-assertion-type", check: .clientAssertionType,
        summary: "\(ChoiceWords.or(ChoiceWords.words(ClientAssertionType.self))): what the platform's assertion is sent as "
            + "(default \(ClientAssertionType.jwtBearer.rawValue))",
        optionValue: "TYPE", optionDefault: ClientAssertionType.jwtBearer.rawValue,
        optionHelp: "What the platform's assertion is sent as (RFC 7523; \(ClientAssertionType.spiffe.rawValue): a SPIFFE JWT-SVID, "
            + "Keycloak's jwt-spiffe)") }
    /// Also a global key (before the first section): the profile's value wins.
    public static var signInNotification: SettingRow { SettingRow(
        key: "sign_in_notification", remembered: false, check: .switchOff,
        summary: "`off` (or `0`, `no`, `false`): a caller that cannot sign in shows no desktop notification (also global)") }
    public static var dpop: SettingRow { SettingRow(
        key: "dpop", flag: "--dpop-mode", environment: "KCAUTH_DPOP", check: .dpop,
        summary: "`\(DPoPMode.no.rawValue)`, `\(DPoPMode.yes.rawValue)` (DPoP-bound tokens, RFC 9449) or `\(DPoPMode.refreshOnly.rawValue)` "
            + "(only the refresh token bound); login --dpop sets `\(DPoPMode.yes.rawValue)`",
        optionValue: "MODE",
        optionHelp: "DPoP for the profile (\(DPoPMode.refreshOnly.rawValue): the provider binds only the refresh token)") }
    public static var par: SettingRow { SettingRow(
        key: "par", flag: "--par", check: .par,
        summary: "\(ChoiceWords.or(ChoiceWords.words(PARMode.self).map { "`\($0)`" })): push the authorization request (RFC 9126); "
            + "`\(PARMode.auto.rawValue)` when the provider offers it",
        optionValue: "MODE",
        optionHelp: "Push the authorization request (RFC 9126; \(PARMode.auto.rawValue): when the provider offers it), remembered") }

    /// The keys of a profile section, in the order the front keeps their values, the docs list
    /// them and `login` writes them. (Each row above is made where it is asked for, so that this
    /// list is made in one go: the front makes it on every warm `kcauth token`, docs/performance.md §4.)
    public static let profileRows: [SettingRow] = [
        issuer, clientID, scope, port, caFile, storage, flow, browserCommand, hosts, username,
        idpHint, acrValues, uiLocales, grant, clientSecretEnv, clientSecretFile, clientAuthMethod,
        clientKey, clientKeyID, clientKeyAlgorithm, clientAssertionEnv, clientAssertionFile, clientAssertionFrom,
        clientAssertionAudience, clientAssertionType, signInNotification, dpop, par,
    ]

    /// The keys allowed before the first section.
    public static let globalKeys = [defaultProfile.key!, signInNotification.key!]

    /// Settings that live only in the environment.
    public static var tokenCache: SettingRow { SettingRow(
        key: nil, environment: "KCAUTH_TOKEN_CACHE", remembered: false, check: .switchOff,
        summary: "`off` (or `0`, `no`, `false`) turns the runtime token cache off") }

    /// Profile keys that each name a client credential: a profile may name at most one.
    public static let credentialKeys = [clientSecretEnv.key!, clientSecretFile.key!, clientKey.key!, clientAssertionEnv.key!,
                                        clientAssertionFile.key!, clientAssertionFrom.key!]

    /// The environment variables holding a client credential itself (never saved): at most one may be set.
    public static let credentialVariables = [clientSecretEnv.environment!, clientAssertionEnv.environment!]

    public static var profileKeys: [String] { profileRows.map { $0.key! } }

    /// The row of a profile key.
    public static func row(key: String) -> SettingRow? {
        for row in profileRows where row.key == key { return row }
        return nil
    }

    /// Where the encrypted store's passphrase comes from, for callers without a terminal (the path,
    /// never the passphrase; read only when the store must be opened).
    public static var passphraseFile: SettingRow { SettingRow(
        key: nil, flag: "--passphrase-file", environment: "KCAUTH_PASSPHRASE_FILE", remembered: false, isPath: true,
        summary: "a file (mode 0600) holding the encrypted store's passphrase", optionValue: "PATH",
        optionHelp: "Read the encrypted store's passphrase from this file (mode 0600) instead of the terminal") }

    /// `--debug` / `KCAUTH_DEBUG`: the redacted trace of what the command does, on standard error
    /// (or in ``debugFile``). The flag's value is given inline only (`--debug=json`).
    public static var debug: SettingRow { SettingRow(
        key: nil, flag: "--debug", environment: "KCAUTH_DEBUG", remembered: false, check: .debug,
        summary: "1 (or text) traces every request, answer and decision on standard error, secrets redacted; json: one JSON object per line",
        optionValue: "FORMAT",
        optionHelp: "Trace what the command does on stderr, secrets redacted") }

    /// `KCAUTH_DEBUG_FILE`: the trace goes to this file instead of standard error.
    public static var debugFile: SettingRow { SettingRow(
        key: nil, environment: "KCAUTH_DEBUG_FILE", remembered: false, isPath: true,
        summary: "with a trace on, append it to this file (created mode 0600; a link or another user's file is refused) instead of standard error") }

    /// How long `login` waits for the browser (this login only).
    public static var timeout: SettingRow { SettingRow(
        key: nil, flag: "--timeout", remembered: false, summary: "how long login waits for the browser, in seconds",
        optionValue: "SECONDS", optionDefault: "300", optionHelp: "How long to wait for the browser") }

    /// Every row: the profile's keys, then the rows that are not profile keys.
    public static var all: [SettingRow] { [profile, defaultProfile] + profileRows + [tokenCache, passphraseFile, timeout, debug, debugFile] }
}
