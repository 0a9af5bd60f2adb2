import KCAuthCrypto

/// A value that is a secret: a token, a code, a verifier, a key, a passphrase. Its only printable
/// form is redacted — `description`, `debugDescription`, string interpolation, `print`, `dump`,
/// `Mirror` and `Encodable` all give `[access_token: 1187 bytes, sha256 3f2a9c1e]` (its kind, its
/// length in bytes and the first 8 hex digits of its SHA-256, so two traces can be compared) — so
/// a trace, a log line or an error message cannot hold it by accident. Taking the raw value out
/// is one explicit call, ``reveal()``, made where the value goes on the wire: an HTTP request,
/// the store, the token a command prints.
///
/// Redaction by type, not by pattern: a search of the output for the value would miss its
/// base64 and percent-encoded forms; a value of this type never gets there in any form.
public struct Secret: Sendable, Equatable {
    public let kind: SecretKind
    private let value: String

    public init(_ kind: SecretKind, _ value: String) {
        self.kind = kind
        self.value = value
    }

    /// The raw value, for the wire. The one way out: every use is a place a secret leaves kcauth.
    public func reveal() -> String { value }

    public var isEmpty: Bool { value.isEmpty }

    /// The same value, as another kind (`refresh_token` sent as revocation's `token`).
    public func named(_ kind: SecretKind) -> Secret { Secret(kind, value) }

    /// The same value, whatever it is called: a rotated refresh token is compared with the one
    /// before it, a forwarded token with the one held.
    public static func == (a: Secret, b: Secret) -> Bool { a.value == b.value }

    /// `[access_token: 1187 bytes, sha256 3f2a9c1e]`.
    public var redacted: String {
        let digest = SHA256.hash(Array(value.utf8)).prefix(4)
        let hex = Array("0123456789abcdef".utf8)
        var fingerprint = ""
        for byte in digest {
            fingerprint.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
            fingerprint.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
        }
        return "[\(kind.rawValue): \(value.utf8.count) bytes, sha256 \(fingerprint)]"
    }
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { redacted }
    public var debugDescription: String { redacted }
    /// `dump` and every reflection see the redacted form only, never the stored value.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted], displayStyle: .struct) }
}

extension Secret: Encodable {
    /// The redacted form: a secret written with an encoder (a trace event, a JSON document) is
    /// never the value. A store that must keep the value encodes ``reveal()`` itself.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(redacted)
    }
}
