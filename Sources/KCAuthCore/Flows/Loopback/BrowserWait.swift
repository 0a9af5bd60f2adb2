/// What the browser flow does while the listener waits: counts down, watches a
/// launcher that may fail at once, and takes an answer pasted at the terminal.
///
/// Driven by the listener's tick on the listener's thread; not shared.
final class BrowserWait {
    /// How long a launcher is watched: `xdg-open` and `wslview` exit within about a second,
    /// with a non-zero status when they find no browser. A browser run directly as `$BROWSER`
    /// lives on, and is not watched after this.
    static let launcherWatchSeconds = 5.0
    static let tickSeconds = 0.25

    private let launched: (any LaunchedBrowser)?
    /// The URL to open by hand once the launcher failed (the provider's, pushed now where PAR is
    /// used): the local start URL shown so far serves only browsers on this machine.
    private let urlByHand: (() throws -> WireText)?
    private let paste: (any LineInput)?
    private let fallBackToDevice: Bool
    private let started: Double
    private let deadline: Double
    private var pasting: Bool
    private var watching: Bool

    init(launched: (any LaunchedBrowser)?, paste: (any LineInput)?, pasteNow: Bool, fallBackToDevice: Bool,
         now: Double, timeout: Double, urlByHand: (() throws -> WireText)? = nil) {
        self.launched = launched
        self.urlByHand = urlByHand
        self.paste = paste
        self.fallBackToDevice = fallBackToDevice
        started = now
        deadline = now + timeout
        pasting = pasteNow && paste != nil
        watching = launched != nil
    }

    /// Whether answers are taken from the terminal now.
    var acceptsPaste: Bool { pasting }

    /// One tick: the lines pasted since the last one (empty when none), after the launcher check
    /// and the countdown. Throws `LoopbackFlow.BrowserUnavailable` when a failed launcher hands
    /// the login to the device flow.
    func tick(now: Double, notify: (FlowDriver.Event) -> Void) throws -> [String] {
        if watching, let launched {
            if let failure = launched.failure() {
                watching = false
                if fallBackToDevice { throw LoopbackFlow.BrowserUnavailable(error: failure) }
                notify(.browserFailed(failure))
                if let url = try urlByHand?() { notify(.authorizationURL(url)) }
                startPasting(notify)
            } else if now - started >= Self.launcherWatchSeconds {
                watching = false
            }
        }
        if !pasting { notify(.countdown(remaining: deadline - now)) }
        guard pasting, let paste else { return [] }
        guard let lines = paste.availableLines() else {
            pasting = false  // stdin closed: the listener still waits for the browser
            notify(.pasteEnded)
            return []
        }
        return lines
    }

    /// Paste-back starts when no browser is shown here (no browser asked for, a failed launcher), and
    /// only when there is a terminal to paste into.
    func startPasting(_ notify: (FlowDriver.Event) -> Void) {
        guard !pasting, paste != nil else { return }
        pasting = true
        notify(.pastePrompt)
    }
}
