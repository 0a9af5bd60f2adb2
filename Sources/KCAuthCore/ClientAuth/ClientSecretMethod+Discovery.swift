/// How a client secret is sent (the contract's ``ClientSecretMethod``): chosen from what
/// discovery advertises, and the form each method sends the secret in.
extension ClientSecretMethod {
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
