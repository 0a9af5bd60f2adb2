import KCAuthContract
import KCAuthCore

/// The parts of the man page that are not in the command table: what kcauth is, its files,
/// environment, security properties and examples. Text uses the man page's light markup
/// (`code` in bold; flags are set in bold by themselves). Everything here must describe what
/// the code does today: paths from `Paths`, `FileSecretStore` and `RuntimeTokenCache`, variables
/// that Sources actually read (a test checks every `KCAUTH_*` name).
enum ManPageText {
    /// The page's date. Fixed rather than today's, so that regenerating an unchanged page
    /// changes nothing; bump it when the page's content changes.
    static let date = "2026-11-28"

    static let name = "sign in to Keycloak and OpenID Connect providers and print access tokens"

    static let description: [ManBlock] = [
        .text("""
        kcauth signs you in to Keycloak, or any OpenID Connect provider, from a terminal, and hands \
        scripts a valid access token. `kcauth login` opens your browser and receives the answer on \
        a loopback listener (authorization code with PKCE for a public client, RFC 8252), or uses \
        the device flow (RFC 8628) when no browser can be shown. The ID token is verified, and the \
        session is kept in your desktop keyring through libsecret. `kcauth token` prints the \
        access token, refreshed first when it is about to expire.
        """),
        .text("""
        Every command works on one profile: --profile NAME, else KCAUTH_PROFILE, else the name \
        in the nearest `.kcauth-profile` file (in the working directory or a parent of it; see \
        FILES), else the configuration file's `default_profile` (set with `kcauth use`), else \
        `default`. A profile keeps the settings that worked (issuer, client id, scope, port, \
        flow, storage, CA file) in the configuration file, so a later `kcauth login` needs no flags.
        """),
        .text("""
        Data (a token, a report, JSON) goes to standard output, messages go to standard error. \
        An error is one line, `error: what happened; what to do`, and the exit status says what \
        kind of failure it was (see EXIT STATUS).
        """),
    ]

    /// Variables that no option names (those come from `OptionSpec.environment`).
    static let environment: [ManBlock] = [
        .item("`KCAUTH_TOKEN_CACHE`", """
        `off` (or `0`, `no`, `false`) turns off the runtime cache of access tokens (see FILES).
        """),
        .item("`KUBERNETES_EXEC_INFO`", """
        Set by kubectl when it runs `kcauth token -o exec-credential`: the ExecCredential \
        version to answer in (v1beta1 or v1) and whether the user is at a terminal, in which \
        case kcauth signs in when there is no session.
        """),
        .item("`KCAUTH_ACCESS_TOKEN`", """
        Not read: set by `kcauth exec` in its COMMAND's environment, unless --env names other \
        variables; printed by `kcauth token -o env` as a shell assignment.
        """),
        .item("`KCAUTH_TOKEN_FILE`", """
        Not read: set by `kcauth exec --keep-fresh` in its COMMAND's environment to the file \
        that holds the access token, rewritten before it expires and removed when COMMAND ends.
        """),
        .item("`LC_KCAUTH_FORWARD`", """
        Set on the remote host by `kcauth ssh` (sent by ssh, accepted by a stock sshd's \
        `AcceptEnv LANG LC_*`): the forwarded socket. While it names a live socket of yours, \
        `token`, `exec`, the credential helpers and kubectl's exec plugin get tokens from the \
        laptop over it, `status` and `whoami` describe the forward, and nothing is read from or \
        stored on this host. A socket that is not there or not yours (the variable carried to a \
        second hop), or that nothing listens on any more (then removed), is ignored with one \
        line; one in a directory others can write is refused.
        """),
        .item("`BROWSER`", """
        The commands that open the sign-in page: a colon-separated list, tried in order until \
        one starts. In a command, `%s` stands for the URL (`%%` for a percent sign); without it \
        the URL is appended. Words are split on white space and run without a shell. Unset or \
        empty: `xdg-open`. For the automatic choice of flow, `none` means that there is no \
        browser and any other value that there is one.
        """),
        .item("`KCAUTH_CLIENT_SECRET`", """
        A confidential client's secret, for `login --client-credentials` and the token requests \
        of a confidential client. The profile records the variable's name \
        (`client_secret_env`), never its value; kcauth reads it again for each later token \
        request. Never give a secret as an argument: `--client-secret` is refused.
        """),
        .item("`KCAUTH_CLIENT_ASSERTION`", """
        A client assertion signed by the platform (a CI system's OIDC ID token), sent as \
        `private_key_jwt` client authentication and read again for each token request \
        (recorded as `client_assertion_from = env:KCAUTH_CLIENT_ASSERTION`).
        """),
        .item("`ACTIONS_ID_TOKEN_REQUEST_URL`, `ACTIONS_ID_TOKEN_REQUEST_TOKEN`", """
        Set by GitHub Actions (and Forgejo and Gitea Actions) in a job with \
        `permissions: id-token: write`: with `--client-assertion-from github-actions`, kcauth asks \
        that service for a new ID token for every token request. The request token goes only \
        into that request's Authorization header, over https.
        """),
        .item("`KCAUTH_CLIENT_ASSERTION_AUDIENCE`", """
        Set by kcauth for the program of a `command:` client assertion source: the audience the \
        provider expects (`--client-assertion-audience`, else the issuer).
        """),
        .item("`CI`", "`true`, `1` or `yes`: the automatic choice of flow is the device flow."),
        .item("`SSH_CONNECTION`, `SSH_TTY`", """
        An SSH session: the automatic choice of flow is the device flow, unless the session \
        forwards a display.
        """),
        .item("`DISPLAY`, `WAYLAND_DISPLAY`", """
        A graphical display: the automatic choice of flow is the browser flow, and a locked \
        keyring is unlocked through its own password dialog (see SECURITY).
        """),
        .item("`NO_COLOR`", """
        When set and not empty, the device flow's code is not shown in bold and its QR code \
        contains no colour escape sequences. kcauth uses no other colour.
        """),
        .item("`TERM`", """
        `dumb`: login prints plain lines (no countdown line, no escape sequences), as it does \
        when standard error is not a terminal.
        """),
        .item("`DBUS_SESSION_BUS_ADDRESS`", """
        The D-Bus session bus on which the Secret Service (the keyring) is reached; when unset, \
        the socket `$XDG_RUNTIME_DIR/bus`.
        """),
        .item("`XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `XDG_RUNTIME_DIR`, `HOME`", """
        Where kcauth keeps its configuration, sessions and runtime cache (see FILES); the shared \
        directory of its locks does not follow them. Relative values are ignored, as the XDG \
        Base Directory specification requires.
        """),
        .item("`https_proxy`, `HTTPS_PROXY`, `http_proxy`, `all_proxy`, `ALL_PROXY`, `no_proxy`, `NO_PROXY`", """
        Proxies, read by libcurl (`http_proxy` in lower case only). When a request fails while \
        one is set, the error message says so.
        """),
    ]

    /// Extra sentences for variables that options name, after the generated "used when the
    /// flag is absent" sentence.
    static let environmentNotes: [String: String] = [
        SettingsCatalogue.profile.environment!: "It wins over the configuration file's `default_profile`.",
        SettingsCatalogue.storage.environment!: """
        Every command reads it, and it wins over the profile's `storage` setting.
        """,
        SettingsCatalogue.flow.environment!: "Case does not matter; it counts for one run and is not remembered.",
        SettingsCatalogue.debug.environment!: "1 or text: a trace in lines; json: one JSON object per line; 0 or off: none (see DEBUGGING).",
        SettingsCatalogue.caFile.environment!: """
        Every command that talks to the provider (token when it refreshes, refresh, logout, \
        whoami, doctor) uses it instead of the profile's `ca_file`.
        """,
    ]

    /// The sticky authorization parameters' keys, as the FILES section lists them.
    static let stickyKeys = StickyParameter.allCases.map { "`\($0.key)`" }.joined(separator: ", ")

    static let files: [ManBlock] = [
        .item("`$XDG_CONFIG_HOME/kcauth/config` (default `~/.config/kcauth/config`)", """
        The configuration file: an INI file meant to be edited by hand, with no secrets in it. \
        Keys before the first `[section]` are global (`default_profile`); each `[NAME]` section \
        is a profile with the keys `issuer`, `client_id`, `scope`, `port`, `flow`, `storage`, \
        `ca_file`, `hosts` and `username` for the git and docker credential helpers, \
        \(stickyKeys), `grant`, and where a confidential client's \
        credential comes from (`client_secret_env`, `client_secret_file`, `client_auth_method`, \
        `client_key`, `client_key_id`, `client_key_alg`, `client_assertion_from`, \
        `client_assertion_audience`, `client_assertion_type`; the older `client_assertion_env` and \
        `client_assertion_file` are still read), never the credential. Lines starting with `#` or `;` are comments. kcauth changes only the lines it \
        writes, writes atomically (directory 0700, file 0600), and never rewrites a file it \
        cannot parse. A key kcauth does not read is never used: every command that reads the \
        file warns of it on standard error, naming the line and the key probably meant, and \
        `kcauth doctor` fails its configuration check.
        """),
        .item("`.kcauth-profile`", """
        One profile name, in the working directory or the nearest parent: it picks the profile \
        for every command run below it, after --profile and KCAUTH_PROFILE and before \
        `default_profile`. It names one of your own profiles and carries no settings, so a \
        cloned repository cannot send kcauth to another issuer; it is read under the rules of \
        the configuration file (yours or root's, writable by nobody else), else ignored with a \
        warning.
        """),
        .item("`$XDG_STATE_HOME/kcauth/store.key`, `$XDG_STATE_HOME/kcauth/PROFILE.sealed` (default `~/.local/state/kcauth/`)", """
        The encrypted store (`storage = encrypted`): `store.key` holds the data key, sealed \
        with AES-256-GCM under a key derived from your passphrase (scrypt); each \
        `PROFILE.sealed` holds a profile's session sealed under the data key, with a header \
        that names the store and the profile. `store.lock` serialises the writes, and \
        `store.key.next` and `PROFILE.sealed.next` exist only while `kcauth passphrase \
        --new-key` runs. Directory 0700, files 0600, written atomically. `kcauth unlock` keeps \
        the data key in the kernel's user keyring (`kcauth:data-key:ID`) until its time runs \
        out, `kcauth lock` revokes it.
        """),
        .item("`$XDG_STATE_HOME/kcauth/PROFILE.json` (default `~/.local/state/kcauth/`)", """
        The session of a profile with `storage = file`, in plaintext: directory 0700, file \
        0600, written atomically. kcauth refuses to read a file that is a symlink, is not yours, \
        or can be read by group or others.
        """),
        .item("`$XDG_RUNTIME_DIR/kcauth/PROFILE.token`", """
        The runtime cache: the access token only (never the refresh token), so that `kcauth \
        token` needs no keyring call while the token is valid. Directory 0700, file 0600, \
        trusted only if it is yours with no access for group or others; login, refresh and \
        logout replace or remove it. There is none without `$XDG_RUNTIME_DIR` or with \
        `KCAUTH_TOKEN_CACHE=off`.
        """),
        .item("`$XDG_STATE_HOME/kcauth/forward.log`", """
        One line per answer `kcauth ssh` gave the remote host: time, destination, profile, \
        scope and what was handed out (or why not), never a token. File 0600.
        """),
        .item("`/run/user/UID/kcauth-locks`, or `~/.local/state/kcauth/locks` where `/run/user/UID` is not yours", """
        The shared directory, found from your user id alone (`~` is your home in the password \
        database, whatever `$HOME` says; never `/tmp`), so that a cron job and a terminal meet \
        there. In it: `PROFILE.DIGEST.refresh.lock`, the lock (`flock`) that serialises the \
        refreshes and logouts of a session across processes (DIGEST: 16 hex digits of the \
        session's store, issuer and client id; the same profile name in another configuration \
        is another session); `STORE-PROFILE.lock`, the refresh lock of earlier releases, held \
        shared beside it; `PROFILE.DIGEST.signin.lock`, one sign-in in flight per session; \
        `PROFILE.DIGEST.session`, the session mark that retires cached tokens in every \
        environment; `PROFILE.HASH.memory`, the note of a memory-only login; \
        `notified-PROFILE`, when the desktop reminder was last shown; `forward-XXXXXX/`, one \
        directory per `kcauth ssh` or `forward-agent`, with the socket it lends (`agent.sock`), \
        ssh's control socket (`control`) and the record `status` lists (`forward`). The lock \
        files stay; the kernel releases a lock when its process ends.
        """),
        .item("`$XDG_RUNTIME_DIR/kcauth-token-PID-XXXXXX/token`, else in `/run/user/UID` or `/dev/shm`", """
        The token file of `kcauth exec --keep-fresh` (without --token-file), on memory-backed \
        storage only: the first of `$XDG_RUNTIME_DIR` and `/run/user/UID` that is your own, \
        private directory on a tmpfs, else `/dev/shm`; with none of them kcauth exits with \
        status 1 before COMMAND starts. The directory is removed when COMMAND ends, or by the \
        next `exec --keep-fresh` if kcauth was killed.
        """),
        .item(CredentialHelper.all.map { "`PREFIX/bin/\($0.program)`" }.joined(separator: ", "), """
        Symbolic links to kcauth under the names git and docker run credential helpers by \
        (`credential.helper = kcauth`, `"credHelpers": {"REGISTRY": "kcauth"}`): run under \
        them, kcauth is \(CredentialHelper.all.map { "`kcauth \($0.command)`" }.joined(separator: " and ")).
        """),
        .item("`PREFIX/libexec/kcauth/kcauth-full` (Debian: `/usr/libexec/kcauth/kcauth-full`)", """
        The full program. `kcauth` itself is a small static program that answers a warm-cache \
        `kcauth token` and runs `kcauth-full` with the same arguments and environment for \
        everything else. It is found from kcauth's own file (`../libexec/kcauth/`, else the same \
        directory), never through `PATH`; kcauth exits with status 1 if it is missing or could \
        be replaced by anyone but root or you (a symlink, or writable by group or others).
        """),
    ]

    /// `--debug`, `KCAUTH_DEBUG`, `KCAUTH_DEBUG_FILE`: what a trace holds, and what it never does.
    static let debugging: [ManBlock] = [
        .text("""
        --debug (or `KCAUTH_DEBUG=1`) writes one line per event to standard error: a timestamp, the \
        milliseconds since the command started, the event and its fields. It covers every HTTP \
        request and answer (method, URL, status, time, headers, the form and the JSON body), \
        discovery and the provider's key set, the runtime cache's and the stored session's \
        decisions, the flow chosen and why, the keyring's and the encrypted store's calls with \
        their time, waits for the refresh and sign-in locks, the browser launch, the loopback \
        listener's connections (the peer's uid, served or refused), the device flow's polls, a \
        forward's requests, and whether the small `kcauth` front served `kcauth token` itself or \
        handed it to the full program, and why. --debug=json (`KCAUTH_DEBUG=json`) writes one JSON \
        object per line instead. Standard output is the same with or without a trace.
        """),
        .text("""
        No secret is ever in a trace: tokens, codes, the PKCE verifier, `state` and `nonce`, device \
        codes, client secrets and assertions, DPoP proofs, cookies and the values of the \
        `Authorization` and `DPoP` headers are a type of their own in kcauth, which prints only as \
        `[access_token: 1187 bytes, sha256 3f2a9c1e]` (what it is, its length, and the first 8 \
        hex digits of its SHA-256, so two traces can be compared), wherever they are: in a URL, a \
        form or a JSON answer. An answer's fields are shown only when they are known to hold no \
        secret (`token_type`, `expires_in`, `scope`, `error`, …); an ID token's claims are shown, \
        decoded, and a client assertion's `iss`, `sub`, `aud` and `exp`. A trace is meant to be \
        pasted into a bug report; it names your user, issuer and endpoints.
        """),
        .text("""
        `KCAUTH_DEBUG_FILE=PATH` appends the trace to PATH instead, created with mode 0600; a \
        symbolic link, a file of another user or one that others may read is refused.
        """),
    ]

    static let security: [ManBlock] = [
        .text("""
        What is stored where. The session (the access, refresh and ID tokens, their expiry times, \
        the granted scope and the provider's endpoints) is one Secret Service item per profile, \
        with schema `dev.kcauth.AuthState` and the attributes `profile`, `issuer` and \
        `client_id` (`secret-tool search profile default` shows it). With --storage file it is \
        a plaintext file that is as safe as your account (see FILES); with --storage memory it \
        is kept nowhere. kcauth never falls back from the keyring to a file by itself: when the \
        keyring is unavailable, locked or not responding, it exits with status 5. On a display, \
        login, token, refresh, logout and whoami first ask the Secret Service to unlock a locked \
        keyring (its own password dialog; they wait up to 30 s and say so on standard error); a \
        dismissed or unanswered dialog exits with status 5. status and doctor never open the \
        dialog. The runtime cache holds access tokens only. The configuration file holds no tokens.
        """),
        .text("""
        What is sent where. Codes and tokens go only to the endpoints of the issuer's discovery \
        document, whose `issuer` must match. TLS is always verified (against the system's \
        certificates, or those of --ca-file); there is no option to turn that off, and plain \
        http is accepted only for a loopback issuer (127.0.0.0/8, ::1, localhost). The browser \
        gets the authorization request (client id, redirect URI, scope, PKCE challenge, state \
        and nonce) and never a token. `kcauth logout --browser` sends the ID token to the \
        provider's end-session endpoint as `id_token_hint`, but not on a command line: the \
        browser is started at a one-shot local address (`http://127.0.0.1:PORT/start/...`) that \
        redirects it to the provider, so the token is in the browser's history, never in a \
        process's arguments. kcauth puts \
        no token in a command line, an error message or the environment of a process it starts \
        on its own (only `kcauth exec` puts one in its COMMAND's environment, because you ask it \
        to), and the browser launcher's output goes to standard error. The git and docker \
        helpers hand a token only to the servers a profile's `hosts` lists, also when --profile \
        or KCAUTH_PROFILE picks the profile, and only over https, or over plain http to a \
        numeric loopback address (127.0.0.0/8, ::1; not a name such as localhost).
        """),
        .text("""
        RFC 8252 (OAuth 2.0 for native apps). kcauth is a public client: it has no client \
        secret, and PKCE with S256 (RFC 7636) binds the authorization code to the login that \
        asked for it. You sign in in the system browser, never in a web view of kcauth, so \
        kcauth never sees your password. The redirect comes back to a listener bound to \
        127.0.0.1 only (not localhost, which may resolve elsewhere), on a free port unless \
        --port is given, so register `http://127.0.0.1/callback` without a port (section 7.3). \
        The listener answers other paths with 404, ignores a response whose `state` is not this \
        login's, and checks `iss` (RFC 9207). The ID token's signature and claims are checked \
        before anything is stored.
        """),
        .text("""
        With the device flow (RFC 8628), approve only a code that kcauth has just shown you: \
        whoever started the flow gets the session.
        """),
    ]

    static let examples: [ManBlock] = [
        .text("Sign in to a Keycloak realm; the profile remembers the rest, so later logins need no flags:"),
        .example([
            "kcauth login --server https://sso.example.com --realm demo \\",
            "    --client-id cli",
            "kcauth login",
        ]),
        .text("Call an API from a script, with a token that is valid for at least 30 seconds:"),
        .example([
            "kcauth token -o curl | curl -K - https://api.example.com/",
            "curl -H \"$(kcauth token -o header)\" https://api.example.com/",
            "TOKEN=$(kcauth token --profile work) || exit",
            "eval \"$(kcauth token -o env)\"",
        ]),
        .text("kubectl, with kcauth as its exec credential plugin (a user and a context in ~/.kube/config):"),
        .example([
            "kcauth kubeconfig --cluster prod --merge ~/.kube/config",
            "kubectl --context prod-default get pods",
        ]),
        .text("git and docker, for the servers the profile's `hosts` setting lists:"),
        .example([
            "git config --global credential.https://git.example.com.helper kcauth",
            "echo '{\"credHelpers\": {\"registry.example.com\": \"kcauth\"}}' \\",
            "    > ~/.docker/config.json",
        ]),
        .text("Any program, with a fresh token in its environment:"),
        .example(["kcauth exec --env GITLAB_TOKEN -- glab mr list"]),
        .text("""
        A CI job with the device flow: the link and the code go to the job's log, someone \
        approves them, and the access token is printed once and kept nowhere (exit status 3 when \
        the sign-in is denied or the code expires):
        """),
        .example([
            "TOKEN=$(kcauth login --device --storage memory -o raw \\",
            "    --issuer https://sso.example.com/realms/demo --client-id ci) || exit",
            "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com/",
        ]),
        .text("Shell completion for the current bash session:"),
        .example(["source <(kcauth completion bash)"]),
    ]

    static let seeAlso: [ManBlock] = [
        .text("`secret-tool`(1), `xdg-open`(1), `gnome-keyring-daemon`(1), `curl`(1)"),
        .text("""
        RFC 6749 (OAuth 2.0), RFC 7636 (PKCE), RFC 8252 (OAuth 2.0 for Native Apps), RFC 8628 \
        (Device Authorization Grant), RFC 7009 (Token Revocation), RFC 9207 (Issuer \
        Identification), OpenID Connect Core 1.0 and RP-Initiated Logout 1.0.
        """),
    ]
}
