/// Where a setting's value came from, as a fact: how to name it to a person (a command-line
/// option by its flag, say) is the presentation's business.
public enum SettingOrigin: Sendable, Equatable {
    /// A command-line option, named by its setting's key (`port`, `ca_file`, `profile`).
    case option(String)
    /// The issuer given as a Keycloak server and realm on the command line.
    case serverAndRealm
    /// An environment variable, by name (`KCAUTH_CA_FILE`).
    case environment(String)
    /// A key of the configuration file: the profile's section, or the global `default_profile`.
    case file(String)
    /// The working directory's profile file, by path (`.kcauth-profile`).
    case directory(String)
    /// A person's answer to a question at the terminal.
    case answer

    /// The origin's own name, without words for how a person gives it: the key of an option or
    /// of the file, a variable's name, a path.
    public var plainName: String {
        switch self {
        case .option(let key), .file(let key): return key
        case .serverAndRealm: return "issuer"
        case .environment(let name): return name
        case .directory(let path): return path
        case .answer: return "answer"
        }
    }
}
