/// The two ways to send a client secret (RFC 6749 §2.3.1), chosen from what discovery advertises.
public enum ClientSecretMethod: String, Sendable, CaseIterable, Codable {
    case basic = "client_secret_basic"
    case post = "client_secret_post"

    /// `client_secret_basic` when the provider lists it, or lists nothing (RFC 8414 §2: "If
    /// omitted, the default is client_secret_basic"); else `client_secret_post` when listed.
    /// Throws `KCAuthError(.provider)` when the provider takes neither.
    public static func preferred(advertised: [String]?) throws -> ClientSecretMethod {
        guard let advertised else { return .basic }
        let offered = advertised.compactMap(ClientSecretMethod.init(rawValue:))
        if offered.contains(.basic) { return .basic }
        if offered.contains(.post) { return .post }
        throw KCAuthError(
            .provider,
            "the provider accepts no client secret at its token endpoint (it offers: \(listing(advertised)))",
            remedy: .useClientKey)
    }

    /// The secret in the form that `method` sends it.
    public func authentication(_ secret: ClientSecret) -> ClientAuthentication {
        switch self {
        case .basic: .clientSecretBasic(secret)
        case .post: .clientSecretPost(secret)
        }
    }

    static func listing(_ methods: [String]) -> String {
        methods.isEmpty ? "nothing" : methods.prefix(10).map { Sanitize.oneLine($0, limit: 40) }.joined(separator: ", ")
    }
}
