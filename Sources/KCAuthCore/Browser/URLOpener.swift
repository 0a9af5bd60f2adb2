/// Shows a URL to the user in a browser (`browser_command`, `$BROWSER`, WSL's launchers, else
/// `xdg-open`). The launcher's own output must never reach stdout, and the URL is never treated
/// as a shell word. The URL is typed (``WireText``): its secrets are revealed only in the
/// launcher's argv.
public protocol URLOpener: Sendable {
    /// Starts the launcher and returns without waiting for the browser. Throws when no launcher
    /// could be started.
    func open(_ url: WireText) throws

    /// Like `open`, with the profile's browser command (nil: the default launchers), and returns
    /// a handle to notice a launcher that fails right after it started (nil: nothing to watch).
    func launch(_ url: WireText, command: BrowserCommand?) throws -> (any LaunchedBrowser)?
}

extension URLOpener {
    public func launch(_ url: WireText, command: BrowserCommand?) throws -> (any LaunchedBrowser)? {
        try open(url)
        return nil
    }
}
