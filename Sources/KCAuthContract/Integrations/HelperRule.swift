/// What the git and docker credential helpers decide, the same in both programs: which profile's
/// token a server may have, the user name given with it, and how fresh the token must be.
public enum HelperRule {
    /// The user name git and docker are given when a profile sets none.
    public static let defaultUsername = "oauth2"
    /// A helper's token is valid for at least this long: git and docker use it for a whole
    /// operation (a clone, a pull) after asking once.
    public static let minValid: Double = 60

    /// The profile whose token `host` may have: the picked one (`--profile`, else
    /// `KCAUTH_PROFILE`) if its `hosts` lists the host, else — nothing picked — the first profile
    /// in the file that lists it. Picking narrows the choice and never widens it: a helper string
    /// applies to every server git or docker talk to (a submodule, a redirect), and a token must
    /// reach only the servers its profile names.
    public static func profile(for host: HostListRule.Host, picked: String?,
                               profiles: [(name: String, hosts: [HostListRule.Host])]) -> String? {
        func lists(_ p: (name: String, hosts: [HostListRule.Host])) -> Bool { p.hosts.contains { host.isServed(by: $0) } }
        if let picked { return profiles.first { $0.name == picked }.flatMap { lists($0) ? picked : nil } }
        return profiles.first(where: lists)?.name
    }
}
