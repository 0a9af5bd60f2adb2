/// The runtime cache file (`$XDG_RUNTIME_DIR/kcauth/<profile>.token`): its schema, its one
/// writer and its one reader, used by both programs (the front serves from it, the full program
/// fills and serves from it).
///
/// One flat JSON object (RFC 8259) whose values are all strings. The reader is strict — an
/// unknown, repeated or missing key, another value type or invalid UTF-8 is nil, and the entry
/// is then a miss — so a cache written by a newer kcauth with more fields is simply refilled.
public struct CacheRecord: Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    /// Seconds since the epoch, whole (RFC 3339 in the file); nil when the provider gave no lifetime.
    public var expiresAt: Double?
    public var scope: String
    public var issuer: String
    public var clientID: String
    /// The store of the session the token belongs to (`keyring`, `file`).
    public var storage: String
    /// The session the token came from (see ``SessionMark``); nil for sessions stored by kcauth 0.1.
    public var sessionID: String?
    /// Who is signed in, for people (`kcauth prompt`'s `{user}`): the display name of the
    /// session's identity (ID token claims, which may be shown; never a token). nil: unknown.
    public var user: String?
    /// How the session gets its next access token without a person (`kcauth prompt` tells
    /// "expired but refreshable" from "sign-in needed" with it); nil in records of older writers.
    public var renewal: SessionRenewal?
    /// When the refresh token stops working, when the provider said (`refresh_expires_in`);
    /// nil: no known end.
    public var renewalExpiresAt: Double?

    public init(accessToken: String, tokenType: String, expiresAt: Double?, scope: String, issuer: String,
                clientID: String, storage: String, sessionID: String?, user: String? = nil,
                renewal: SessionRenewal? = nil, renewalExpiresAt: Double? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt.map { $0.isFinite ? $0.rounded(.down) : 0 }
        self.scope = scope
        self.issuer = issuer
        self.clientID = clientID
        self.storage = storage
        self.sessionID = sessionID
        self.user = user
        self.renewal = renewal
        self.renewalExpiresAt = renewalExpiresAt.map { $0.isFinite ? $0.rounded(.down) : 0 }
    }

    /// The keys, in the order the writer uses. `expires_at`, `session_id` and the three after it
    /// may be absent (a record written before them reads as it did).
    static let keys = ["access_token", "token_type", "expires_at", "scope", "issuer", "client_id", "storage", "session_id",
                       "user", "renewal", "renewal_expires_at"]

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            ContractJSON.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            ContractJSON.appendString(value, to: &out)
        }
        field("access_token", accessToken)
        field("token_type", tokenType)
        field("expires_at", expiresAt.map(Timestamp.format))
        field("scope", scope)
        field("issuer", issuer)
        field("client_id", clientID)
        field("storage", storage)
        field("session_id", sessionID)
        field("user", user)
        field("renewal", renewal?.rawValue)
        field("renewal_expires_at", renewalExpiresAt.map(Timestamp.format))
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The record of a cache file, or nil when it is not exactly this schema. A reader for this one
    /// shape (a flat object of strings, RFC 8259), not a general JSON tree: the front reads it on
    /// every warm token, and a general reader's generic containers touch standard-library code
    /// that costs the static front peak RSS (docs/performance.md §4).
    public init?(_ bytes: [UInt8]) {
        guard let values = bytes.withUnsafeBufferPointer({ Self.flatObject($0) }) else { return nil }
        guard let accessToken = values[0], !accessToken.isEmpty, let tokenType = values[1],
              let scope = values[3], let issuer = values[4], let clientID = values[5], let storage = values[6] else { return nil }
        var expiresAt: Double?, renewalExpiresAt: Double?, renewal: SessionRenewal?
        if let text = values[2] {
            guard let parsed = Timestamp.parse(text) else { return nil }
            expiresAt = parsed
        }
        if let text = values[9] {
            guard let parsed = SessionRenewal(rawValue: text) else { return nil }
            renewal = parsed
        }
        if let text = values[10] {
            guard let parsed = Timestamp.parse(text) else { return nil }
            renewalExpiresAt = parsed
        }
        self.init(accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, scope: scope, issuer: issuer,
                  clientID: clientID, storage: storage, sessionID: values[7], user: values[8], renewal: renewal,
                  renewalExpiresAt: renewalExpiresAt)
    }

    /// The values by `keys` index; nil for anything but one object of known, unrepeated keys with
    /// string values, valid UTF-8, and nothing after it but whitespace.
    static func flatObject(_ b: UnsafeBufferPointer<UInt8>) -> [String?]? {
        var values = [String?](repeating: nil, count: keys.count)
        var i = 0
        func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 } }
        func expect(_ c: UInt8) -> Bool {
            skipSpace()
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        func string() -> String? {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            // The common case, a string without escapes, in one scan: made from the file's bytes
            // (no byte-by-byte append), decoded directly when ASCII, validated otherwise.
            let start = i
            var ascii = true
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                if c >= 0x80 { ascii = false }
                i += 1
            }
            guard i < b.count, b[i] >= 0x20 else { return nil }
            if b[i] == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: b[start..<i])
                i += 1
                return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            }
            var out = Array(UnsafeBufferPointer(rebasing: b[start..<i]))
            while i < b.count {
                let c = b[i]
                i += 1
                if c == UInt8(ascii: "\"") { return String(validating: out, as: UTF8.self) }
                if c < 0x20 { return nil }
                guard c == UInt8(ascii: "\\") else { out.append(c); continue }
                guard JSONEscape.decode(b, &i, into: &out) else { return nil }
            }
            return nil
        }
        guard expect(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") { return nil }   // no fields: not a record
        repeat {
            guard let key = string(), let index = ASCIIText.index(of: key, in: keys), values[index] == nil, expect(UInt8(ascii: ":")),
                  let value = string() else { return nil }
            values[index] = value
        } while expect(UInt8(ascii: ","))
        guard expect(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        return i == b.count ? values : nil
    }
}

extension CacheRecord {
    /// Whether the cached token is a Bearer token (RFC 6750; the type is case-insensitive,
    /// RFC 6749 §5.1): the only kind the front hands out. A DPoP-bound one needs a proof made
    /// with the session's key, which only the full program reads.
    public var isBearer: Bool {
        tokenType.utf8.count == 6 && SettingCheck.asciiLowercased(tokenType) == "bearer"
    }
}
