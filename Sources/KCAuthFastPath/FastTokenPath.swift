#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// The warm-cache `kcauth token`, answered before the full program is set up
/// (docs/performance.md §6), with the full program's answer for every input.
///
/// `kcauth token` runs once per script call, git/kubectl/docker operation, so its common case —
/// a valid access token in the runtime cache — is served here with plain `open`/`read`, no
/// Foundation: the configuration file, the cache file and the session mark are each read once.
/// Everything else returns nil and the caller runs the full program, which then behaves
/// exactly as if this did not exist.
///
/// It serves a token only when **all** of these hold (docs/performance.md lists them too); each
/// rule is the contract's (KCAuthContract), which the full program applies as well:
/// - the arguments are `token` with at most `--profile NAME` and `-o`/`--output FORMAT`;
/// - the environment passes ``CacheGate/environmentAllows(_:)`` and `KUBERNETES_EXEC_INFO`, if
///   set, is one the full program accepts (``ExecInfoRule``);
/// - the configuration file passes the configuration ``FileRule`` and parses completely
///   (``FastConfigFile``); the profile (`--profile`, else `$KCAUTH_PROFILE`, else the
///   directory's `.kcauth-profile`, else `default_profile`, else `default`) has a section every value of which the full program
///   accepts (``CacheGate/profileBinding(_:)``); the directory's `.kcauth-profile`
///   (``DirectoryProfile``) comes after `$KCAUTH_PROFILE`, and one that must be ignored hands off;
/// - the cache file is private and parses completely (``CacheRecord``), and
///   ``CachePolicy/mayServe(_:binding:mark:now:minValid:)`` holds: bound to the profile's store,
///   issuer and client, its session still the profile's current one in every environment
///   (``SessionMark``), valid for the default `--min-valid`;
/// - the chosen format can be rendered byte for byte as the full program does (``FastTokenOutput``).
public enum FastTokenPath {

    /// The real process: argv (without the program name), the environment, the files, the clock.
    /// Returns the exit status when the token was printed, nil to run the full program.
    public static func serve(arguments: [String]) -> Int32? {
        guard let output = answer(arguments: arguments, environment: FrontInputs.environment,
                                  read: FrontInputs.read, mark: { SessionMark.read(profile: $0, binding: $1) }, now: FrontInputs.now(),
                                  directoryProfile: FrontInputs.directoryProfile)
        else { return nil }
        StandardOutput.write(output)
        return 0
    }

    /// What `kcauth token` would print, or nil when the full program must decide. Pure: the
    /// environment, the file reader, the session mark and the time come in, so tests can pin
    /// every decision.
    public static func answer(arguments: [String], environment: (String) -> String?,
                              read: (_ path: String, _ rule: FileRule) -> ContractFile.Outcome,
                              mark: SessionMark.Lookup, now: Double,
                              directoryProfile: () -> DirectoryProfile.Finding = { .none }) -> String? {
        if case .served(let output, _) = decide(arguments: arguments, environment: environment, read: read, mark: mark, now: now,
                                                 directoryProfile: directoryProfile) { return output }
        return nil
    }

    /// ``answer(arguments:environment:read:mark:now:directoryProfile:)`` with the reason when
    /// the full program must decide (said in a trace, `--debug`).
    static func decide(arguments: [String], environment: (String) -> String?,
                       read: (_ path: String, _ rule: FileRule) -> ContractFile.Outcome,
                       mark: SessionMark.Lookup, now: Double,
                       directoryProfile: () -> DirectoryProfile.Finding) -> FrontDecision {
        guard let request = FastTokenArguments(arguments) else { return .handedOff(.arguments) }
        let cached: (record: CacheRecord, profile: String)
        switch lookup(profileFlag: request.profile, environment: environment, read: read, mark: mark, now: now,
                      directoryProfile: directoryProfile) {
        case .found(let record, let profile): cached = (record, profile)
        case .declined(let reason): return .handedOff(reason)
        }
        let version: String
        switch ExecInfoRule.read(environment(ExecInfoRule.variable)) {
        case .absent: version = ExecInfoRule.v1
        case .execInfo(let apiVersion, _): version = apiVersion
        default: return .handedOff(.execInfo)   // the full program refuses it, whatever the format
        }
        guard let output = FastTokenOutput(format: request.format).render(cached.record, profile: cached.profile, now: now,
                                                                          execVersion: version) else { return .handedOff(.format) }
        return .served(output, profile: cached.profile)
    }

    /// The profile's cached access token when the cache may answer for it (every rule above but
    /// the command line and the output), with the profile's name.
    public static func cachedToken(profileFlag: String?, environment: (String) -> String?,
                                   read: (_ path: String, _ rule: FileRule) -> ContractFile.Outcome,
                                   mark: SessionMark.Lookup, now: Double, minValid: Double = TokenDefaults.minValid,
                                   directoryProfile: () -> DirectoryProfile.Finding = { .none }) -> (record: CacheRecord, profile: String)? {
        if case .found(let record, let profile) = lookup(profileFlag: profileFlag, environment: environment, read: read, mark: mark,
                                                         now: now, minValid: minValid, directoryProfile: directoryProfile) {
            return (record, profile)
        }
        return nil
    }

    /// ``cachedToken(profileFlag:environment:read:mark:now:minValid:directoryProfile:)``, with the
    /// rule that declined it.
    static func lookup(profileFlag: String?, environment: (String) -> String?,
                       read: (_ path: String, _ rule: FileRule) -> ContractFile.Outcome,
                       mark: SessionMark.Lookup, now: Double, minValid: Double = TokenDefaults.minValid,
                       directoryProfile: () -> DirectoryProfile.Finding) -> FrontLookup {
        guard CacheGate.environmentAllows(environment) else { return .declined(.environment) }
        let paths = ContractPaths(environment: environment)
        guard case .bytes(let configBytes) = read(paths.configFile, .configuration) else { return .declined(.configuration) }
        var wanted = profileFlag ?? environment("KCAUTH_PROFILE").flatMap { $0.isEmpty ? nil : $0 }
        if wanted == nil {
            // Looked for only when it decides (the full program warns about a bad file only then).
            switch directoryProfile() {
            case .none: break
            case .named(let name, _): wanted = name   // a profile the file lacks: no section, so the full program decides
            case .ignored: return .declined(.directoryProfile)   // the full program says why it is ignored
            }
        }
        guard let config = FastConfigFile(configBytes, wanted: wanted) else { return .declined(.configuration) }
        let profile = config.profile
        guard ProfileNameRule.isValid(profile), let binding = config.binding() else { return .declined(.profile) }
        guard let directory = paths.runtimeDirectory, let cacheFile = paths.cacheFile(profile: profile),
              case .bytes = read(directory, .secret)   // the directory itself must be private, as the full program checks
        else { return .declined(.runtimeDirectory) }
        guard case .bytes(let cacheBytes) = read(cacheFile, .secret), let record = CacheRecord(cacheBytes) else { return .declined(.noCache) }
        guard CachePolicy.mayServe(record, binding: binding, mark: mark(profile, binding), now: now, minValid: minValid) else {
            return .declined(CachePolicy.belongs(record, to: binding) ? SessionMark.admits(record.sessionID, mark: mark(profile, binding))
                             ? .expiring : .sessionMark : .otherSession)
        }
        // A DPoP-bound token (RFC 9449) is useless, and misleading, as `Authorization: Bearer`:
        // the full program renders it with its proof (RFC 9449 §7.1), or refuses.
        guard record.isBearer else { return .declined(.dpop) }
        return .found(record, profile: profile)
    }
}
