/// Whether a provider takes any port on a loopback redirect URI. RFC 8252 §7.3 says it must, for
/// a redirect URI registered without one; Keycloak does (its `RedirectUtils` matches again with
/// the port dropped, for `http` on 127.0.0.1, localhost and [::1]: shared notes, keycloak-26 §a);
/// many other providers compare the redirect URI exactly, and then only a fixed `port`,
/// registered as is, works. kcauth knows Keycloak by its issuer, `…/realms/NAME`.
public enum LoopbackPortRule {
    public static func anyPortAccepted(issuer: String) -> Bool {
        guard let scheme = issuer.firstRange(of: "://") else { return false }
        let afterScheme = issuer[scheme.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return false }
        let path = afterScheme[slash...].split(separator: "/", omittingEmptySubsequences: true)
        return path.count >= 2 && path[path.count - 2] == "realms"
    }

    /// `http://127.0.0.1:PORT/callback` → `http://127.0.0.1/callback`: what a client registers
    /// for any port.
    public static func withoutPort(_ uri: String) -> String {
        guard let scheme = uri.firstRange(of: "://") else { return uri }
        let rest = uri[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        // An IPv6 literal's colons are inside its brackets; the port's colon comes after them.
        let hostEnd = authority.lastIndex(of: "]").map { authority.index(after: $0) } ?? authority.startIndex
        guard let colon = authority[hostEnd...].lastIndex(of: ":") else { return uri }
        return String(uri[..<colon]) + String(rest[authorityEnd...])
    }
}
