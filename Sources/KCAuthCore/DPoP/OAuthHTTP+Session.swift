import KCAuthCrypto

extension OAuthHTTP {
    /// The transport for requests about a stored session: proving possession of the session's
    /// DPoP key when it has one (RFC 9449), plain otherwise.
    public func proving(session state: AuthState, clock: any TimeSource, random: any RandomSource = SecureRandom()) throws -> OAuthHTTP {
        guard let stored = state.dpop else { return proving(nil) }
        return proving(DPoPProver(key: try DPoPKey(stored: stored), clock: clock, random: random))
    }
}

extension OAuthHTTP {
    /// The prover of a stored DPoP session, for a proof the user's own request carries.
    public static func prover(for state: AuthState, clock: any TimeSource, profile: String) throws -> DPoPProver {
        guard let stored = state.dpop else {
            throw KCAuthError(.loginRequired, "the session of profile '\(profile)' has no DPoP key", remedy: .signIn(profile: profile))
        }
        return DPoPProver(key: try DPoPKey(stored: stored), clock: clock, random: SecureRandom())
    }
}
