/// A browser launcher that was started: `xdg-open` that finds no browser, or a
/// `$BROWSER` entry that cannot run here, exits non-zero within moments; the login polls this
/// for a few seconds so it can fall back instead of waiting minutes for a page nobody sees.
public protocol LaunchedBrowser: AnyObject {
    /// nil while the launcher runs or once it exited with status 0; otherwise why it failed
    /// (after every alternative, e.g. the next `$BROWSER` entry, failed too). Never blocks.
    func failure() -> KCAuthError?
}
