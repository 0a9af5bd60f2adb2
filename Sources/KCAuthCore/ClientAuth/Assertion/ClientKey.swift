import KCAuthCrypto

/// The client's own signing key for `private_key_jwt` (`client_key`), read once per run.
public enum ClientKey {
    /// A signer for the PEM private key in `path`: `algorithm` when given (RS256, PS256, ES256,
    /// …), else the key's natural one (RS256 for RSA, ES256 for P-256); `keyID` becomes the
    /// assertion's `kid` header, which providers with several registered keys need.
    ///
    /// Throws `KCAuthError(.configuration)` naming the file and the reason (encrypted, not a
    /// private key, too short an RSA key, wrong curve, algorithm that does not fit); never any
    /// of the file's content.
    public static func signer(file path: String, keyID: String?, algorithm: JWSAlgorithm?,
                              reader: any CredentialReader) throws -> JWSSigner {
        let pem = try reader.readFile(path, limit: PrivateKey.maximumPEMSize)
        do {
            return try JWSSigner(key: PrivateKey(pem: pem), algorithm: algorithm, keyID: keyID)
        } catch let error as CryptoError {
            throw KCAuthError(.configuration, "cannot use the client key \(path): \(error.message)")
        }
    }

    /// The algorithms kcauth can sign a client assertion with (`--client-key-alg`'s choices).
    public static var algorithmNames: [String] { JWSAlgorithm.allCases.map(\.rawValue) }

    /// An algorithm named on the command line or in a profile, or a usage error listing the
    /// ones kcauth can sign with.
    public static func algorithm(named name: String) throws -> JWSAlgorithm {
        guard let algorithm = JWSAlgorithm(rawValue: name.uppercased()) else {
            let known = JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
            throw KCAuthError(.usage, "unknown signing algorithm '\(Sanitize.oneLine(name, limit: 20))' (use one of \(known))")
        }
        return algorithm
    }
}
