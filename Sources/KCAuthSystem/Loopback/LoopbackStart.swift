import KCAuthCore

/// The listener's one-shot start redirect (`BoundRedirectListener.startURL`).
struct LoopbackStart {
    let path: String
    /// Where the first request is redirected; computed then (a pushed authorization request's
    /// `request_uri` is short-lived, so it is pushed when the browser is there).
    let locate: () throws -> String
    /// Set for a login: the first answer binds the browser to it (`BrowserBinding`).
    let binding: BrowserBinding?
    private(set) var used = false
    /// The start URL shown to the person (`startURLToShow`), answered any number of times.
    var shownPath: String?
    /// Whether a browser followed the shown start URL.
    private(set) var shownUsed = false

    /// A browser holds the binding's cookie: it followed the start URL or the one shown.
    var bound: Bool { binding != nil && (used || shownUsed) }

    init(path: String, location: String, binding: BrowserBinding?) {
        self.init(path: path, binding: binding, locating: { location })
    }

    init(path: String, binding: BrowserBinding?, locating: @escaping () throws -> String) {
        self.path = path
        self.locate = locating
        self.binding = binding
    }

    mutating func use() { used = true }

    mutating func useShown() { shownUsed = true }

    /// `Set-Cookie` for the first answer (RFC 6265 §4.1). `Path` keeps the cookie to the redirect
    /// URI's path (cookies are not per port, so other local servers would get it otherwise);
    /// `HttpOnly` keeps it from scripts; `SameSite=Lax` still sends it on the provider's
    /// top-level redirect back to the listener, which is a cross-site GET navigation.
    func setCookieHeader(callbackPath: String) -> String? {
        guard let binding else { return nil }
        return "Set-Cookie: \(binding.cookieName)=\(binding.cookieValue); Path=\(callbackPath); Max-Age=\(binding.lifetime); HttpOnly; SameSite=Lax"
    }
}
