import KCAuthContract

/// What a cached token must match to be served: the store the profile resolves to now, and the
/// issuer and client of its settings.
public struct CacheBinding: Sendable, Equatable {
    public var storage: StorageKind
    public var issuer: String?
    public var clientID: String?

    public init(storage: StorageKind, issuer: String?, clientID: String?) {
        self.storage = storage
        self.issuer = issuer
        self.clientID = clientID
    }

    /// The contract's form (what session marks are kept by); nil without known settings.
    public var contract: CachePolicy.Binding? {
        guard let issuer, let clientID else { return nil }
        return CachePolicy.Binding(storage: storage.recordName, issuer: issuer, clientID: clientID)
    }

    /// Without known settings nothing is served from the cache: the store decides.
    public func admits(_ token: CachedToken) -> Bool {
        guard let binding = contract else { return false }
        return CachePolicy.belongs(token.record, to: binding)
    }
}
