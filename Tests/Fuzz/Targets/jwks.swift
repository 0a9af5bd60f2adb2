// libFuzzer target: a provider's JWKS (RFC 7517 §5) decoded, and every key in it imported into
// OpenSSL for every algorithm, as signature verification does.
import FoundationEssentials
@testable import KCAuthCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWKS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let set = try? JSONDecoder().decode(JWKSet.self, from: bytes) else {
        _ = try? JSONDecoder().decode(JWK.self, from: bytes)
        return 0
    }
    _ = JWSVerifier.candidateKeys(for: JOSEHeader(alg: "RS256", kid: set.keys.first?.kid), in: set)
    for key in set.keys {
        for algorithm in JWSAlgorithm.allCases { if let imported = try? PublicKey(jwk: key, for: algorithm) { _ = imported.signatureSize } }
    }
    return 0
}
