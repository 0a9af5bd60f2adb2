import KCAuthCore

extension Doctor {
    /// The servers the git and docker helpers give each profile's token to (its `hosts`), so a
    /// `git push` that asks for a password can be traced to a missing or misspelt host. A host two
    /// profiles list goes to the first, unless the helper is told a profile.
    func helpersCheck() -> DoctorCheck {
        let (id, title) = ("helpers", "git and docker helpers")
        guard let config = try? context.config(), let profiles = try? HelperProfiles(config, path: context.settings.path) else {
            return .skip(id, title, "needs a readable configuration")
        }
        var taken: [(host: CredentialHost, by: String)] = []
        var parts: [String] = []
        for (name, settings) in profiles.profiles {
            guard let hosts = settings.hosts, !hosts.isEmpty else { continue }
            let listed = hosts.map { host in
                let first = taken.first { $0.host == host }
                taken.append((host, name))
                return host.description + (first.map { " (answered by '\($0.by)', listed first)" } ?? "")
            }
            parts.append("\(name): " + listed.joined(separator: ", "))
        }
        guard !parts.isEmpty else {
            return .pass(id, title, "no profile lists hosts: the helpers give no server a token")
        }
        // A directory file naming a missing profile fails the configuration check already.
        let picked = ((try? HelperProfiles.picked(context, option: nil)) ?? nil).map { "; only '\($0)' answers (picked here)" } ?? ""
        return .pass(id, title, parts.joined(separator: "; ") + picked)
    }
}
