/// May the runtime cache answer? The one decision both programs make before handing out a
/// cached access token instead of asking the store.
public enum CachePolicy {
    /// What a cached token must match: the store the profile resolves to now, and the issuer and
    /// client of its settings (a login that changed any of them, or a store switched by
    /// `KCAUTH_STORAGE`, can never be answered with another session's token).
    public struct Binding: Sendable, Equatable {
        public var storage: String
        public var issuer: String
        public var clientID: String

        public init(storage: String, issuer: String, clientID: String) {
            self.storage = storage
            self.issuer = issuer
            self.clientID = clientID
        }
    }

    /// Whether the record belongs to the bound session…
    public static func belongs(_ record: CacheRecord, to binding: Binding) -> Bool {
        record.storage == binding.storage && record.issuer == binding.issuer && record.clientID == binding.clientID
    }

    /// …and whether a token that expires at `expiresAt` is still good for `minValid` seconds. A
    /// token without a known expiry is taken as valid: the provider did not say otherwise.
    public static func stillValid(_ expiresAt: Double?, now: Double, minValid: Double) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt - now >= minValid
    }

    /// The whole decision: bound to the profile's session, the session not ended or replaced in
    /// any environment (``SessionMark``), and valid long enough.
    public static func mayServe(_ record: CacheRecord, binding: Binding, mark: SessionMark.State?, now: Double, minValid: Double) -> Bool {
        belongs(record, to: binding) && SessionMark.admits(record.sessionID, mark: mark)
            && stillValid(record.expiresAt, now: now, minValid: minValid)
    }
}
