import KCAuthCore

/// The listener's one-shot start redirect (`BoundRedirectListener.startURL`).
struct LoopbackStart {
    let path: String
    let location: String
    /// Set for a login: the first answer binds the browser to it (`BrowserBinding`).
    let binding: BrowserBinding?
    private(set) var used = false

    init(path: String, location: String, binding: BrowserBinding?) {
        self.path = path
        self.location = location
        self.binding = binding
    }

    mutating func use() { used = true }

    /// `Set-Cookie` for the first answer (RFC 6265 §4.1). `Path` keeps the cookie to the redirect
    /// URI's path (cookies are not per port, so other local servers would get it otherwise);
    /// `HttpOnly` keeps it from scripts; `SameSite=Lax` still sends it on the provider's
    /// top-level redirect back to the listener, which is a cross-site GET navigation.
    func setCookieHeader(callbackPath: String) -> String? {
        guard let binding else { return nil }
        return "Set-Cookie: \(binding.cookieName)=\(binding.cookieValue); Path=\(callbackPath); Max-Age=\(binding.lifetime); HttpOnly; SameSite=Lax"
    }
}
