/// The kubeconfig `users[]` entry whose exec stanza makes kubectl ask kcauth for a token, and
/// (with a cluster name) the `contexts[]` entry that pairs it with that cluster. Rendered as
/// YAML in the block style kubectl itself writes, so `KubeconfigEditor` can merge it.
public struct KubeconfigEntry: Sendable, Equatable {
    public var profile: String
    public var version: ExecCredentialVersion
    public var cluster: String?
    /// The program kubectl runs: `kcauth` found on PATH.
    public var command: String
    /// Its arguments: the `token` command for the profile, printing an ExecCredential (the ID
    /// token, which Kubernetes' OIDC authenticator checks, or the access token for an API behind
    /// a gateway that takes those). The command line is the caller's to spell.
    public var args: [String]

    public init(profile: String, version: ExecCredentialVersion = .v1, cluster: String? = nil, command: String = "kcauth",
                args: [String]) {
        self.profile = profile
        self.version = version
        self.cluster = cluster
        self.command = command
        self.args = args
    }

    public var userName: String { "kcauth-\(profile)" }
    public var contextName: String? { cluster.map { "\($0)-\(profile)" } }

    /// The `- name: …` item for `users:`, lines without a trailing newline.
    public var userItem: [String] {
        var lines = ["- name: \(Self.scalar(userName))", "  user:", "    exec:",
                     "      apiVersion: \(version.rawValue)", "      command: \(Self.scalar(command))", "      args:"]
        lines += args.map { "      - \(Self.scalar($0))" }
        // kubectl ≥ 1.26 wants to know whether the plugin may talk to the user: it may (to log
        // in) when there is a terminal. v1beta1 kubeconfigs before 1.26 do not know the key.
        if version == .v1 { lines.append("      interactiveMode: IfAvailable") }
        lines.append("      provideClusterInfo: false")
        return lines
    }

    public var contextItem: [String]? {
        guard let cluster, let contextName else { return nil }
        return ["- context:", "    cluster: \(Self.scalar(cluster))", "    user: \(Self.scalar(userName))", "  name: \(Self.scalar(contextName))"]
    }

    /// The same `users[]` item as a JSON object, for a kubeconfig written in JSON.
    public var userObject: JSONValue {
        var exec: [(String, JSONValue)] = [("apiVersion", .string(version.rawValue)), ("command", .string(command)),
                                           ("args", .strings(args))]
        if version == .v1 { exec.append(("interactiveMode", .string("IfAvailable"))) }
        exec.append(("provideClusterInfo", .bool(false)))
        return .fields([("name", .string(userName)), ("user", .fields([("exec", .fields(exec))]))])
    }

    /// The `contexts[]` item as a JSON object.
    public var contextObject: JSONValue? {
        guard let cluster, let contextName else { return nil }
        return .fields([("context", .fields([("cluster", .string(cluster)), ("user", .string(userName))])), ("name", .string(contextName))])
    }

    /// The entries as a kubeconfig fragment to paste.
    public var fragment: String {
        var lines = ["users:"] + userItem
        if let contextItem { lines += ["contexts:"] + contextItem }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML scalar: plain when it cannot be misread (names, profile names, paths), otherwise
    /// double-quoted with JSON escapes (valid YAML).
    static func scalar(_ s: String) -> String {
        let plain = !s.isEmpty && s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._/-".unicodeScalars.contains($0)) }
            && !["true", "false", "null", "yes", "no", "on", "off", "~"].contains(s.lowercased())
            && s != "-" && Double(s) == nil
        return plain ? s : JSONValue.string(s).compact
    }
}
