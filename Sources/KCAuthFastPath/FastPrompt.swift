import KCAuthContract

/// `kcauth prompt`, answered by the front at the cost of a warm `kcauth token` (it reads the same
/// files: the configuration, the cache record, the session mark; the store's lock note only when
/// the record does not answer). The line is KCAuthContract's (``SessionGlance``,
/// ``PromptFormat``), which the full program prints too. Handed off (nil) whenever the full
/// program could see it otherwise: the command line, the environment or the configuration is not
/// the plain case ``FastTokenPath`` serves, or a `.kcauth-profile` names a profile without a
/// section (the full program falls back, and its warning is turned off for `prompt`).
enum FastPrompt {
    static func serve(arguments: [String]) -> Int32? {
        guard let line = answer(arguments: arguments, environment: FrontInputs.environment, read: FrontInputs.read,
                                mark: { SessionMark.read(profile: $0, binding: $1) }, now: FrontInputs.now(),
                                directoryProfile: FrontInputs.directoryProfile)
        else { return nil }
        StandardOutput.write(line)
        return 0
    }

    /// What `kcauth prompt` prints, or nil when the full program must decide (pure, like
    /// ``FastTokenPath/answer(arguments:environment:read:mark:now:directoryProfile:)``).
    static func answer(arguments: [String], environment: (String) -> String?,
                       read: (_ path: String, _ rule: FileRule) -> ContractFile.Outcome,
                       mark: SessionMark.Lookup, now: Double,
                       directoryProfile: () -> DirectoryProfile.Finding = { .none }) -> String? {
        guard let request = Request(arguments), let format = PromptFormat(request.format ?? PromptFormat.defaultText),
              CacheGate.environmentAllows(environment) else { return nil }
        let paths = ContractPaths(environment: environment)
        guard case .bytes(let configBytes) = read(paths.configFile, .configuration) else { return nil }
        var wanted = request.profile ?? environment("KCAUTH_PROFILE").flatMap { $0.isEmpty ? nil : $0 }
        var fromDirectory = false
        if wanted == nil {
            switch directoryProfile() {
            case .none: break
            case .named(let name, _): (wanted, fromDirectory) = (name, true)
            case .ignored: return nil
            }
        }
        guard let config = FastConfigFile(configBytes, wanted: wanted), ProfileNameRule.isValid(config.profile) else { return nil }
        guard config.values != nil else { return fromDirectory ? nil : "\n" }   // no such profile: nothing to show
        guard let binding = config.binding() else { return nil }
        let glance = SessionGlance.read(profile: config.profile, binding: binding, runtimeDirectory: paths.runtimeDirectory,
                                        read: read, mark: mark, now: now)
        return format.render(profile: config.profile, glance) + "\n"
    }

    /// `prompt` with at most `--profile NAME` and `--format TEXT` (each also `--name=value`),
    /// each at most once; anything else is nil and the full parser answers.
    struct Request {
        var profile: String?
        var format: String?

        init?(_ arguments: [String]) {
            guard arguments.first == "prompt" else { return nil }
            var i = 1
            while i < arguments.count {
                let arg = arguments[i]
                var name = arg, value: String?
                if let eq = FastTokenArguments.longOptionEquals(arg) {
                    let utf8 = Array(arg.utf8)
                    name = String(decoding: utf8[..<eq], as: UTF8.self)
                    value = String(decoding: utf8[(eq + 1)...], as: UTF8.self)
                }
                guard name == "--profile" || name == "--format" else { return nil }
                if value == nil {
                    guard i + 1 < arguments.count else { return nil }
                    value = arguments[i + 1]
                    i += 1
                }
                guard let value else { return nil }
                if name == "--profile" {
                    guard profile == nil, !value.isEmpty else { return nil }
                    profile = value
                } else {
                    guard format == nil else { return nil }
                    format = value
                }
                i += 1
            }
        }
    }
}
