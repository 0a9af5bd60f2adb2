import KCAuthCrypto

/// How a profile's client authenticates, as the profile records it: where the secret, key or
/// assertion comes from — never the secret, key or assertion itself. ``resolve(_:metadata:)``
/// turns it into a ``ClientAuthentication`` for one run.
public enum ClientAuthenticationSetting: Sendable, Equatable, Codable {
    /// A public client (the default).
    case none
    /// A client secret; `method` nil means "as discovery advertises" (``ClientSecretMethod/preferred(advertised:)``).
    case clientSecret(ClientSecretSource, method: ClientSecretMethod?)
    /// `private_key_jwt` with the client's own PEM key; `algorithm` nil means the key's natural one.
    case privateKey(file: String, keyID: String?, algorithm: String?)
    /// A platform-signed assertion, fetched again for every token request.
    case clientAssertion(PlatformAssertion)

    /// Reads the secret or key now (the assertion later, per request) and checks the method
    /// against discovery (RFC 8414 §2) where discovery says anything. A platform's assertion is
    /// asked for the issuer's audience unless the profile names one.
    public func resolve(_ ports: CredentialPorts, metadata: ProviderMetadata) throws -> ClientAuthentication {
        let reader = ports.reader
        switch self {
        case .none:
            return .none
        case .clientSecret(let source, let method):
            let chosen = try method ?? ClientSecretMethod.preferred(advertised: metadata.tokenEndpointAuthMethodsSupported)
            return chosen.authentication(try source.secret(using: reader))
        case .privateKey(let file, let keyID, let name):
            let algorithm = try name.map(ClientKey.algorithm(named:))
            let signer = try ClientKey.signer(file: file, keyID: keyID, algorithm: algorithm, reader: reader)
            try AssertionSupport.check(algorithm: signer.algorithm, methods: metadata.tokenEndpointAuthMethodsSupported,
                                       algorithms: metadata.tokenEndpointAuthSigningAlgValuesSupported)
            return .privateKeyJWT(signer)
        case .clientAssertion(let assertion):
            // A JWT assertion travels as private_key_jwt does; what a provider lists for SPIFFE is not settled.
            if assertion.type == .jwtBearer {
                try AssertionSupport.check(algorithm: nil, methods: metadata.tokenEndpointAuthMethodsSupported, algorithms: nil)
            }
            return .clientAssertion(ClientAssertionSource(assertion, ports: ports, issuer: metadata.issuer.isEmpty ? nil : metadata.issuer))
        }
    }

    /// One line for `status` and `whoami`: the method and where its credential comes from.
    public var summary: String {
        switch self {
        case .none:
            "none (public client)"
        case .clientSecret(let source, let method):
            "\(method?.rawValue ?? "client secret") (secret from \(source))"
        case .privateKey(let file, let keyID, let algorithm):
            "private_key_jwt (key file \(file)\(algorithm.map { ", \($0)" } ?? "")\(keyID.map { ", kid \($0)" } ?? ""))"
        case .clientAssertion(let assertion):
            "private_key_jwt (assertion from \(assertion))"
        }
    }
}
