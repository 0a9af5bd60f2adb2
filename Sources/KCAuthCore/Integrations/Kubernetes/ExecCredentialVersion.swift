/// The `client.authentication.k8s.io` versions kubectl speaks to exec plugins: v1beta1 (the only
/// one before Kubernetes 1.22, still common in kubeconfigs written by other tools) and v1.
public enum ExecCredentialVersion: String, Sendable, CaseIterable {
    case v1 = "client.authentication.k8s.io/v1"
    case v1beta1 = "client.authentication.k8s.io/v1beta1"

    /// The short name a person gives (`v1beta1`).
    public var shortName: String { String(rawValue.split(separator: "/").last!) }

    public init?(shortName: String) {
        guard let v = Self.allCases.first(where: { $0.shortName == shortName }) else { return nil }
        self = v
    }
}
