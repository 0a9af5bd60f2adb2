extension SessionWriter {
    /// This writer, remembering the client-secret method discovery chose at login
    /// (`client_auth_method`), so later token requests send the secret the same way without
    /// asking discovery again.
    public func pinning(_ authentication: ClientAuthentication?) -> SessionWriter {
        guard let authentication, var remember, let setting = remember.clientAuth else { return self }
        remember.clientAuth = setting.pinning(authentication)
        return SessionWriter(store: store, storage: storage, cache: cache, settings: settings, remember: remember)
    }
}
