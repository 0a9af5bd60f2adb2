/// A JWK Set (RFC 7517 §5), as served from an OpenID Provider's `jwks_uri`.
///
/// Decoding skips entries that are not valid JWK objects (e.g. no `kty`, or a member of the
/// wrong JSON type) instead of failing the whole set, as RFC 7517 §5 recommends: one odd key
/// must not stop tokens signed by the others from verifying. A missing `keys` member is an error.
public struct JWKSet: Sendable, Equatable, Decodable {
    public var keys: [JWK]

    public init(keys: [JWK]) {
        self.keys = keys
    }

    private enum CodingKeys: String, CodingKey {
        case keys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([SkippingInvalid].self, forKey: .keys)
        keys = entries.compactMap(\.key)
    }

    /// Decodes to nil rather than failing, so one bad entry does not stop the array.
    private struct SkippingInvalid: Decodable {
        let key: JWK?

        init(from decoder: any Decoder) throws {
            key = try? JWK(from: decoder)
        }
    }
}
