/// The ExecCredential document an exec plugin prints for kubectl
/// (k8s.io/client-go/pkg/apis/clientauthentication): the bearer token and its expiry, after
/// which kubectl runs the plugin again. The same shape in v1beta1 and v1.
public struct ExecCredential: Sendable, Equatable {
    public var version: ExecCredentialVersion
    public var token: String
    public var expiresAt: Instant?

    public init(version: ExecCredentialVersion, token: String, expiresAt: Instant?) {
        self.version = version
        self.token = token
        self.expiresAt = expiresAt
    }

    public var json: String {
        var status: [(String, JSONValue)] = [("token", .string(token))]
        if let expiresAt { status.append(("expirationTimestamp", .string(expiresAt.rfc3339))) }
        return JSONValue.fields([("apiVersion", .string(version.rawValue)),
                                 ("kind", .string("ExecCredential")),
                                 ("status", .fields(status))]).compact + "\n"
    }
}
