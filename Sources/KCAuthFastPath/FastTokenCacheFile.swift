/// The runtime cache file (`$XDG_RUNTIME_DIR/kcauth/<profile>.token`, written by
/// RuntimeTokenCache with JSONEncoder) as ``FastTokenPath`` reads it: one flat JSON object whose
/// values are all strings. Nil for anything else — another value type, an unknown or repeated
/// key, a missing field, an escape other than `\/`, `\"`, `\\`, an `expires_at` that is not
/// exactly `YYYY-MM-DDTHH:MM:SSZ` — so a cache format this parser does not know (a newer kcauth's,
/// with more fields) is left to the full program.
struct FastTokenCacheFile: Equatable {
    var accessToken: String
    var tokenType: String
    var expiresAt: Double
    var scope: String
    var issuer: String
    var clientID: String
    /// The store of the session the token belongs to (`CachedToken.storage`): served only for `keyring`.
    var storage: String

    /// The fields, in the order of `values` below (no dictionary: see FastConfigFile on why).
    /// `session_id` is optional (sessions stored by kcauth 0.1 have none); every other key is required.
    static let keys = ["access_token", "token_type", "expires_at", "scope", "issuer", "client_id", "storage", "session_id"]

    init?(_ bytes: [UInt8]) {
        var values = [String?](repeating: nil, count: Self.keys.count)
        var i = bytes.startIndex
        func skipSpace() { while i < bytes.endIndex, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 } }
        func expect(_ c: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.endIndex, bytes[i] == c else { return false }
            i += 1
            return true
        }
        func string() -> String? {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while i < bytes.endIndex {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.endIndex, bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "\\") else { return nil }
                    out.append(bytes[i])
                    i += 1
                case 0x20..<0x7F:
                    out.append(b)
                default:
                    return nil   // control characters, and non-ASCII: left to the full decoder
                }
            }
            return nil
        }
        guard expect(UInt8(ascii: "{")) else { return nil }
        repeat {
            guard let key = string(), let index = Self.keys.firstIndex(of: key), values[index] == nil, expect(UInt8(ascii: ":")),
                  let value = string() else { return nil }
            values[index] = value
        } while expect(UInt8(ascii: ","))
        guard expect(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        guard i == bytes.endIndex else { return nil }

        guard let accessToken = values[0], !accessToken.isEmpty, let tokenType = values[1],
              let expires = values[2], let expiresAt = FastTimestamp.parse(expires),
              let scope = values[3], let issuer = values[4], let clientID = values[5], let storage = values[6] else { return nil }
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scope = scope
        self.issuer = issuer
        self.clientID = clientID
        self.storage = storage
    }
}
