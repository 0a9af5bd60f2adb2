import KCAuthCore

extension KCAuthContext {
    /// A fresh platform assertion of the profile's client, described (``AssertionPreview``);
    /// nil when the client does not authenticate with one.
    public func assertionPreview(_ profile: ResolvedProfile) -> AssertionPreview? {
        guard case .clientAssertion(let assertion) = profile.clientAuth.value else { return nil }
        return .take(ClientAssertionSource(assertion, ports: credentialPorts, issuer: profile.issuer?.value))
    }
}
