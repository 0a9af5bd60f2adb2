/// Which profile serves a server for the git and docker helpers: the first profile whose
/// `hosts` setting lists it. A server no profile lists gets no answer, so the tool asks the
/// next helper (git) or goes without credentials (docker).
public enum HostRouting {
    /// `profiles` in the order of the configuration file.
    public static func profile(for host: CredentialHost, among profiles: [(name: String, hosts: [CredentialHost])]) -> String? {
        profiles.first { $0.hosts.contains { host.isServed(by: $0) } }?.name
    }
}
