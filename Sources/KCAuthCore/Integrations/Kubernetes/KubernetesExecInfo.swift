import KCAuthContract

/// What kubectl tells an exec credential plugin in `KUBERNETES_EXEC_INFO`: the ExecCredential
/// API version it expects back and whether the user can answer prompts (`spec.interactive`).
///
/// kubectl < 1.22 knows only v1beta1 and rejects a v1 answer ("plugin returned version …"), so
/// the answer must use the version asked for. Without the variable (a person running the command)
/// the answer is v1 and the session is taken as not interactive.
public struct KubernetesExecInfo: Sendable, Equatable {
    public var apiVersion: ExecCredentialVersion
    public var interactive: Bool

    public init(apiVersion: ExecCredentialVersion = .v1, interactive: Bool = false) {
        self.apiVersion = apiVersion
        self.interactive = interactive
    }

    public static let variable = ExecInfoRule.variable

    /// What kubectl said in an environment (nothing: not run by kubectl, not interactive).
    public init(environment: [String: String]) throws {
        try self.init(environmentValue: environment[Self.variable])
    }

    /// The variable's value from the environment; nil or empty means "not run by kubectl".
    /// Anything else that is not an ExecCredential object naming a known version is refused:
    /// answering in a version kubectl did not ask for only fails later, less clearly.
    public init(environmentValue raw: String?) throws {
        // The contract's reader: the front accepts and refuses exactly these values.
        switch ExecInfoRule.read(raw) {
        case .absent:
            self.init()
        case .execInfo(let version, let interactive):
            self.init(apiVersion: ExecCredentialVersion(rawValue: version) ?? .v1, interactive: interactive)
        case .notAnObject:
            throw KCAuthError(.usage, "\(Self.variable) is not a JSON object")
        case .noAPIVersion:
            throw KCAuthError(.usage, "\(Self.variable) has no apiVersion")
        case .unknownVersion(let version):
            throw KCAuthError(.usage, "kubectl asks for ExecCredential version '\(Sanitize.oneLine(version, limit: 80))'",
                              hint: "kcauth answers \(ExecCredentialVersion.allCases.map(\.rawValue).joined(separator: " and "))")
        }
    }
}
