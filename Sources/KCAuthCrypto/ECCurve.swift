/// The NIST curves named by JWK `crv` (RFC 7518 §6.2.1.1) that the ES algorithms use.
enum ECCurve: String {
    case p256 = "P-256"
    case p384 = "P-384"

    var bits: Int32 {
        switch self {
        case .p256: 256
        case .p384: 384
        }
    }

    /// Octets in one coordinate, and in each half of a JWS `R || S` signature (RFC 7518 §3.4).
    var coordinateLength: Int { Int(bits) / 8 }
}
