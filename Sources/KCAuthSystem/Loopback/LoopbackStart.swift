import KCAuthCore

/// The listener's one-shot start redirect (`BoundRedirectListener.startURL`).
struct LoopbackStart {
    /// `/start/…`: a secret, as the path of the request that uses it.
    let path: Secret
    /// Where the first request is redirected; computed then (a pushed authorization request's
    /// `request_uri` is short-lived, so it is pushed when the browser is there).
    let locate: () throws -> WireText
    /// Set for a login: the first answer binds the browser to it (`BrowserBinding`).
    let binding: BrowserBinding?
    private(set) var used = false
    /// The start URL shown to the person (`startURLToShow`), answered any number of times.
    var shownPath: Secret?
    /// Whether a browser followed the shown start URL.
    private(set) var shownUsed = false

    /// A browser holds the binding's cookie: it followed the start URL or the one shown.
    var bound: Bool { binding != nil && (used || shownUsed) }

    init(path: Secret, location: WireText, binding: BrowserBinding?) {
        self.init(path: path, binding: binding, locating: { location })
    }

    init(path: Secret, binding: BrowserBinding?, locating: @escaping () throws -> WireText) {
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
        return "Set-Cookie: \(binding.cookieName)=\(binding.cookieValue.reveal()); Path=\(callbackPath); Max-Age=\(binding.lifetime); HttpOnly; SameSite=Lax"
    }
}
