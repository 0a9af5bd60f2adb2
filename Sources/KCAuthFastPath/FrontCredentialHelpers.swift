import KCAuthContract

/// git's and docker's `get`, served by the front when the token is warm: git runs
/// its helper per operation, docker per pull. The answer is the full program's byte for byte
/// (`GitCredentialCommand`, `DockerCredentialCommand`), under the contract's rules: the profile
/// chosen by ``HelperRule`` among profiles the full program reads without a word, the transport
/// rule of ``CredentialTransport``, the cache decision of ``FastTokenPath/cachedToken``. Anything
/// else — no answer, an error, another action — is the full program's to say (nil).
enum FrontCredentialHelpers {
    struct Request: Equatable {
        /// The wire protocol of the helper's row (``CredentialHelper``): all the front needs to
        /// read the request and answer it.
        var wire: CredentialHelper.Wire
        var profileFlag: String?

        /// A helper's command (``CredentialHelper``) with an action the front answers warm
        /// (`git-credential get`), and at most one `--profile NAME`.
        init?(_ arguments: [String]) {
            guard let first = arguments.first, let helper = CredentialHelper.named(command: first) else { return nil }
            wire = helper.wire
            var action: String?
            var i = 1
            while i < arguments.count {
                let arg = arguments[i]
                if arg == "--profile" || arg.hasPrefix("--profile=") {
                    guard profileFlag == nil else { return nil }
                    if arg == "--profile" {
                        guard i + 1 < arguments.count else { return nil }
                        profileFlag = arguments[i + 1]
                        i += 1
                    } else {
                        profileFlag = String(arg.dropFirst("--profile=".count))
                    }
                    guard let flag = profileFlag, ProfileNameRule.isValid(flag) else { return nil }
                } else if arg.hasPrefix("-") || action != nil {
                    return nil
                } else {
                    action = arg
                }
                i += 1
            }
            guard let action, helper.servesWarm(action) else { return nil }
        }
    }

    /// The profiles the full program's helpers read (every section, each readable) with the hosts
    /// and user name of each; nil when the file or any profile is one it would refuse.
    static func profiles(_ environment: (String) -> String?, read: (String, FileRule) -> ContractFile.Outcome)
        -> [(name: String, hosts: [HostListRule.Host], username: String?)]? {
        let paths = ContractPaths(environment: environment)
        guard case .bytes(let bytes) = read(paths.configFile, .configuration),
              let config = FastConfigFile(bytes, wanted: nil, allSections: true) else { return nil }
        let hostsIndex = FastConfigFile.keyIndex("hosts")!
        let userIndex = FastConfigFile.keyIndex("username")!
        var result: [(name: String, hosts: [HostListRule.Host], username: String?)] = []
        for (name, values) in config.sections {
            guard CacheGate.profileReadable(values) else { return nil }
            var hosts: [HostListRule.Host] = []
            if let raw = values[hostsIndex] {
                guard case .success(let parsed) = HostListRule.parse(raw) else { return nil }
                hosts = parsed
            }
            result.append((name, hosts, values[userIndex]))
        }
        return result
    }

    /// The answer for git's request on stdin (`input`), or nil.
    static func git(_ request: Request, input: [UInt8], environment: (String) -> String?,
                    read: (String, FileRule) -> ContractFile.Outcome, mark: SessionMark.Lookup, now: Double,
                    directoryProfile: () -> DirectoryProfile.Finding = { .none }) -> String? {
        // Printable ASCII lines only: anything else is the full program's to read.
        guard input.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x0D }) else { return nil }
        var fields: [(key: String, value: String)] = []
        var authtype = false
        // git-credential(1): `key=value` lines up to a blank line; a trailing CR is dropped.
        for rawLine in String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty { break }
            guard let eq = line.firstIndex(of: "=") else { return nil }
            let key = String(line[..<eq]), value = String(line[line.index(after: eq)...])
            if key == "capability[]" {
                if value == "authtype" { authtype = true }
            } else {
                fields.removeAll { $0.key == key }
                fields.append((key, value))
            }
        }
        func field(_ key: String) -> String? { fields.last { $0.key == key }?.value }
        guard let scheme = field("protocol"), let hostText = field("host"), let host = HostListRule.Host(hostText),
              CredentialTransport.allowsToken(scheme: scheme, host: host.host),
              let profiles = profiles(environment, read: read) else { return nil }
        guard case .decided(let picked) = pickedProfile(request, environment, profiles, directoryProfile),
              let name = HelperRule.profile(for: host, picked: picked, profiles: profiles.map { ($0.name, $0.hosts) }),
              let cached = FastTokenPath.cachedToken(profileFlag: name, environment: environment, read: read, mark: mark, now: now,
                                                     minValid: HelperRule.minValid)?.record,
              let expiresAt = cached.expiresAt, GitCredentialLines.isLineSafe(cached.accessToken) else { return nil }
        let sent = field("username").flatMap { $0.isEmpty ? nil : $0 }
        let username = sent ?? profiles.first { $0.name == name }?.username ?? HelperRule.defaultUsername
        return GitCredentialLines.answer(username: username, token: cached.accessToken, expiresAt: Int64(expiresAt), bearer: authtype)
    }

    /// The answer for docker's `get` with the registry on stdin (`input`), or nil. `profiles`
    /// were read first, as the full program reads them before stdin.
    static func docker(_ request: Request, input: [UInt8], profiles: [(name: String, hosts: [HostListRule.Host], username: String?)],
                       environment: (String) -> String?, read: (String, FileRule) -> ContractFile.Outcome,
                       mark: SessionMark.Lookup, now: Double, directoryProfile: () -> DirectoryProfile.Finding = { .none }) -> String? {
        // ASCII only (the full program trims Unicode whitespace): printable, and blanks.
        guard input.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || ($0 >= 0x09 && $0 <= 0x0D) }) else { return nil }
        let blank: (UInt8) -> Bool = { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
        var bytes = input[...]
        while let f = bytes.first, blank(f) { bytes.removeFirst() }
        while let l = bytes.last, blank(l) { bytes.removeLast() }
        let serverURL = String(decoding: bytes, as: UTF8.self)
        let lower = SettingCheck.asciiLowercased(serverURL)
        var rest = Substring(serverURL)
        for prefix in ["https://", "http://"] where lower.hasPrefix(prefix) { rest = rest.dropFirst(prefix.count) }
        let authority = rest.prefix { $0 != "/" }
        var scheme = "https"
        if let colon = lower.firstIndex(of: ":"), lower[colon...].hasPrefix("://") { scheme = String(lower[..<colon]) }
        guard !authority.contains("@"), let host = HostListRule.Host(String(authority)),
              CredentialTransport.allowsToken(scheme: scheme, host: host.host),
              case .decided(let picked) = pickedProfile(request, environment, profiles, directoryProfile),
              let name = HelperRule.profile(for: host, picked: picked, profiles: profiles.map { ($0.name, $0.hosts) }),
              let cached = FastTokenPath.cachedToken(profileFlag: name, environment: environment, read: read, mark: mark, now: now,
                                                     minValid: HelperRule.minValid)?.record else { return nil }
        let username = profiles.first { $0.name == name }?.username ?? HelperRule.defaultUsername
        guard let quoted = FastTokenOutput.quoted([serverURL, username, cached.accessToken]) else { return nil }
        return DockerCredentialJSON.getAnswer(quotedServerURL: quoted[0], quotedUsername: quoted[1], quotedSecret: quoted[2])
    }

    enum Pick: Equatable {
        /// The profile picked (nil: none; the `hosts` settings choose).
        case decided(String?)
        /// The full program would say something first: a directory file it ignores, or one
        /// naming a profile the configuration lacks (which stops the command).
        case handOff
    }

    /// `--profile`, else `KCAUTH_PROFILE` (non-empty), else the directory's `.kcauth-profile` when
    /// it names one of the file's profiles, as the full program's helpers pick.
    static func pickedProfile(_ request: Request, _ environment: (String) -> String?,
                              _ profiles: [(name: String, hosts: [HostListRule.Host], username: String?)],
                              _ directoryProfile: () -> DirectoryProfile.Finding) -> Pick {
        if let picked = request.profileFlag ?? environment("KCAUTH_PROFILE").flatMap({ $0.isEmpty ? nil : $0 }) { return .decided(picked) }
        switch directoryProfile() {
        case .none: return .decided(nil)
        case .named(let name, _): return profiles.contains { $0.name == name } ? .decided(name) : .handOff
        case .ignored: return .handOff
        }
    }

}
