import KCAuth
import KCAuthCore

/// `kcauth kubeconfig`: the kubeconfig user entry whose exec plugin is `kcauth token`, printed
/// or merged into a kubeconfig file.
enum KubeconfigCommand: Command {
    static let spec = CommandSpec(
        "kubeconfig", summary: "Print or merge a kubeconfig user that gets tokens from kcauth",
        description: """
        Prints a kubeconfig `users` entry named kcauth-PROFILE whose exec plugin runs `kcauth \
        token` for the profile's ID token as an ExecCredential (Kubernetes' OIDC authentication \
        takes the ID token; --access-token sends the access token instead). kubectl runs it when it needs \
        a token and caches the answer until the token expires. With --cluster, a context \
        CLUSTER-PROFILE pairs that user with a cluster already in the kubeconfig (merging one \
        the file does not have is an error that names its clusters). With --merge \
        FILE the entries are added to FILE, or replace the ones of the same name, and the old \
        file is kept as FILE.bak. The merge works as kubectl's own changes do: under kubectl's \
        lock FILE.lock (waiting up to 10 seconds for another writer), through a symbolic link \
        to its target, in the file's format (a JSON kubeconfig stays JSON); FILE must be a \
        regular file of at most 16 MiB. When kubectl runs kcauth interactively and there is no \
        session, kcauth signs in first (messages on stderr); otherwise it exits with status 4. \
        Use --api-version v1beta1 for kubectl older than 1.22.
        """,
        options: [
            CommandTable.profile, cluster, apiVersion, accessToken, merge,
        ],
        examples: [
            "kcauth kubeconfig --cluster prod --merge ~/.kube/config",
        ])

    static let cluster = OptionSpec("cluster", value: "NAME", help: "Also add a context pairing the user with this cluster")
    static let apiVersion = OptionSpec("api-version", value: "VERSION", help: "client.authentication.k8s.io version of the exec plugin",
                                       default: "v1", choices: ExecCredentialVersion.allCases.map(\.shortName))
    static let accessToken = OptionSpec("access-token", help: "Send the access token instead of the ID token")
    static let merge = OptionSpec("merge", value: "FILE", help: "Add the entries to this kubeconfig (backup in FILE.bak)", completes: .files)

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        // Only the name: the entry runs `kcauth token`, which resolves the rest when kubectl calls it.
        let profile = try services.resolve(command).name
        if let cluster = command.value(cluster), cluster.isEmpty || !GitCredentialAnswer.isLineSafe(cluster) {
            throw KCAuthError(.usage, "--cluster takes a cluster name of printable characters")
        }
        let entry = KubeconfigEntry(profile: profile,
                                    version: command.value(apiVersion).flatMap(ExecCredentialVersion.init(shortName:)) ?? .v1,
                                    cluster: command.value(cluster), args: tokenArguments(profile: profile, accessToken: command.flag(accessToken)))
        guard let path = command.value(merge) else {
            services.console.out(entry.fragment)
            return
        }
        let hadFile = try services.context.kubeconfigMerge().run(entry, into: path)
        services.console.err("Wrote user '\(entry.userName)'\(entry.contextName.map { " and context '\($0)'" } ?? "") to \(path)"
                             + (!hadFile ? ".\n" : " (previous file in \(path).bak).\n"))
    }

    /// What kubectl runs: `kcauth token` for the profile, printing an ExecCredential with the
    /// ID token (Kubernetes' OIDC authenticator checks it) or the access token.
    static func tokenArguments(profile: String, accessToken: Bool) -> [String] {
        [TokenCommand.spec.name, "--" + CommandTable.profile.long, profile] + (accessToken ? [] : ["--" + TokenOutput.idToken.long])
            + ["-\(TokenOutput.option.short!)", TokenOutput.execCredential.rawValue]
    }
}
