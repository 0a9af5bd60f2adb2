/// kubectl's `KUBERNETES_EXEC_INFO` as both programs read it: which ExecCredential version to
/// answer in, and whether a person can answer prompts (`spec.interactive`). One reader, so the
/// front and the full program accept and refuse the same values.
public enum ExecInfoRule {
    public static let variable = "KUBERNETES_EXEC_INFO"
    public static let v1 = "client.authentication.k8s.io/v1"
    public static let v1beta1 = "client.authentication.k8s.io/v1beta1"
    /// Far more than kubectl sends (it includes the cluster's CA, a few KiB).
    public static let sizeLimit = 64 * 1024

    public enum Reading: Sendable, Equatable {
        /// Unset or empty: not run by kubectl.
        case absent
        case execInfo(apiVersion: String, interactive: Bool)
        case notAnObject
        case noAPIVersion
        case unknownVersion(String)
    }

    public static func read(_ raw: String?) -> Reading {
        guard let raw, !raw.isEmpty else { return .absent }
        guard raw.utf8.count <= sizeLimit, let doc = ContractJSON.parse(Array(raw.utf8)), case .object = doc else { return .notAnObject }
        guard case .string(let version)? = doc["apiVersion"] else { return .noAPIVersion }
        guard version == v1 || version == v1beta1 else { return .unknownVersion(version) }
        var interactive = false
        if case .bool(let b)? = doc["spec"]?["interactive"] { interactive = b }
        return .execInfo(apiVersion: version, interactive: interactive)
    }
}
