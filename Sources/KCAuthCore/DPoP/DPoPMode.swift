/// The profile's `dpop` setting: whether kcauth asks the provider to bind the
/// session to a key of its own (RFC 9449).
public enum DPoPMode: String, Sendable, Equatable, CaseIterable {
    /// Bearer tokens, no key (the default: every resource server understands them).
    case no
    /// Proofs on every token request; the provider binds the access and refresh tokens, and
    /// `kcauth token` hands out the access token with a proof for one request.
    case yes
    /// Proofs on every token request, for a provider set to bind only the refresh token: the
    /// access token stays a Bearer token for kubectl, git and other tools that know no DPoP.
    case refreshOnly = "refresh-only"

    public var usesKey: Bool { self != .no }
}
