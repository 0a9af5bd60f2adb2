#if canImport(Glibc)
import Glibc
#endif

/// The warm-cache `kcauth token`, answered before the full program is set up (issue 13).
///
/// `kcauth token` runs once per script call, git/kubectl/docker operation, so its common case —
/// a valid access token of a keyring profile in the runtime cache — is served here with plain
/// `open`/`read`, no Foundation and no JSON decoder: the configuration file and the cache file
/// are each read once, by one small parser each. Everything else returns nil and the caller runs
/// the full program, which then behaves exactly as if this did not exist.
///
/// It serves a token only when **all** of these hold (docs/performance.md lists them too):
/// - the arguments are `token` with at most `--profile NAME` and `-o`/`--output FORMAT` (any of the
///   five formats); `--min-valid`, `--id-token`, `--help` or anything else falls back;
/// - `KCAUTH_TOKEN_CACHE` and `KCAUTH_STORAGE` are unset or empty, `XDG_RUNTIME_DIR` is absolute,
///   and the configuration file's location is known (`XDG_CONFIG_HOME` absolute, or `HOME`);
/// - the configuration file parses completely (``FastConfigFile``), the profile (`--profile`, else
///   `$KCAUTH_PROFILE`, else `default_profile`, else `default`) has a section whose `storage` is
///   absent or `keyring`, and whose `issuer` and `client_id` are set;
/// - the cache file is private (``PrivateFileReader``) and parses completely (``FastTokenCacheFile``),
///   it belongs to a keyring session (`storage`), its `issuer` and `client_id` equal the profile's
///   (the same binding as `CacheBinding`), and its `expires_at` is at least 30 s away
///   (the default `--min-valid`);
/// - the chosen format can be rendered byte for byte as the full program does (``FastTokenOutput``).
public enum FastTokenPath {
    /// `kcauth token`'s default `--min-valid`.
    static let minValid: Double = 30

    /// The real process: argv (without the program name), the environment, the files, the clock.
    /// Returns the exit status when the token was printed, nil to run the full program.
    public static func serve(arguments: [String]) -> Int32? {
        guard let output = answer(arguments: arguments, environment: { getenv($0).map { String(cString: $0) } },
                                  read: { PrivateFileReader.read($0, mustBePrivate: $1) }, now: now()) else { return nil }
        StandardOutput.write(output)
        return 0
    }

    /// What `kcauth token` would print, or nil when the full program must decide. Pure: the
    /// environment, the file reader and the time come in, so tests can pin every decision.
    public static func answer(arguments: [String], environment: (String) -> String?,
                              read: (_ path: String, _ mustBePrivate: Bool) -> [UInt8]?, now: Double) -> String? {
        guard let request = FastTokenArguments(arguments) else { return nil }
        func unsetOrEmpty(_ name: String) -> Bool { environment(name).map(\.isEmpty) ?? true }
        // kubectl names the ExecCredential version it wants (v1beta1 or v1) in KUBERNETES_EXEC_INFO,
        // and may ask for an interactive login: the full program answers it.
        guard request.format != .execCredential || unsetOrEmpty("KUBERNETES_EXEC_INFO") else { return nil }
        guard unsetOrEmpty("KCAUTH_TOKEN_CACHE"), unsetOrEmpty("KCAUTH_STORAGE"),
              let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/"),
              let configPath = configFile(environment) else { return nil }

        let fromEnvironment = environment("KCAUTH_PROFILE").flatMap { $0.isEmpty ? nil : $0 }
        guard let configBytes = read(configPath, false),
              let config = FastConfigFile(configBytes, wanted: request.profile ?? fromEnvironment) else { return nil }
        let profile = config.profile
        guard FastConfigFile.isProfileName(profile.utf8), let settings = config.keyringProfile() else { return nil }

        let directory = runtime + "/kcauth"
        guard read(directory, true) != nil,   // the directory itself must be private, as the full program checks
              let cacheBytes = read(directory + "/" + profile + ".token", true),
              let cached = FastTokenCacheFile(cacheBytes),
              cached.storage == "keyring", cached.issuer == settings.issuer, cached.clientID == settings.clientID,
              cached.expiresAt - now >= minValid else { return nil }
        return FastTokenOutput(format: request.format).render(cached, profile: profile, now: now)
    }

    /// `$XDG_CONFIG_HOME/kcauth/config` (absolute only), else `$HOME/.config/kcauth/config`.
    static func configFile(_ environment: (String) -> String?) -> String? {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/kcauth/config" }
        guard let home = environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.config/kcauth/config"
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
