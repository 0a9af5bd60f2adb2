/// Shows a URL to the user in a browser (`$BROWSER`, else `xdg-open`). The launcher's own output
/// must never reach stdout, and the URL is never treated as a shell word.
public protocol URLOpener: Sendable {
    /// Starts the launcher and returns without waiting for the browser. Throws when no launcher
    /// could be started.
    func open(_ url: String) throws
}
