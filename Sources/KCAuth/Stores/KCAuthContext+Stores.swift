import KCAuthCore

extension KCAuthContext {
    public func unlock() -> Unlock { Unlock(keyring: adapters.storeKeyring(), clock: adapters.clock, cache: adapters.tokenCache) }

    public func lock() -> Lock { Lock(keyring: adapters.storeKeyring(), cache: adapters.tokenCache) }

    public func passphrase() -> Passphrase { Passphrase(keyring: adapters.storeKeyring()) }

    public func storeOffer() -> StoreOffer { StoreOffer(context: self) }
}
