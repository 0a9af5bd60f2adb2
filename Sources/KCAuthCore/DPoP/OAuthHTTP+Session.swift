import KCAuthCrypto

extension OAuthHTTP {
    /// The transport for requests about a stored session: proving possession of the session's
    /// DPoP key when it has one (RFC 9449), plain otherwise.
    public func proving(session state: AuthState, clock: any TimeSource, random: any RandomSource = SecureRandom()) throws -> OAuthHTTP {
        guard let stored = state.dpop else { return proving(nil) }
        return proving(DPoPProver(key: try DPoPKey(stored: stored), clock: clock, random: random))
    }
}
