/// A `storage` value a person gave (the contract's ``StorageKind``), checked where it enters.
extension StorageKind {
    /// Parses a user-given value; `source` names where it came from in the error, in the
    /// caller's words ("$KCAUTH_STORAGE", "PATH: profile [x]", an option).
    public init(parsing raw: String, source: String, allowed: [StorageKind] = StorageKind.allCases) throws {
        guard let kind = StorageKind(rawValue: raw), allowed.contains(kind) else {
            let choices = allowed.map(\.rawValue).joined(separator: ", ")
            throw KCAuthError(.usage, "\(source): '\(Sanitize.oneLine(raw))' is not a storage kind: use one of \(choices)")
        }
        self = kind
    }
}
