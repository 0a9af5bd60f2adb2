/// The browser launcher with a trace: the URL it opens (its secrets redacted: the start URL's
/// one-shot path, a logout URL's ID token) and whether a launcher started.
public struct TracingOpener: URLOpener {
    let base: any URLOpener
    let trace: any TraceSink
    let clock: any TimeSource

    public init(_ base: any URLOpener, trace: any TraceSink, clock: any TimeSource) {
        self.base = base
        self.trace = trace
        self.clock = clock
    }

    public func open(_ url: WireText) throws {
        try trace.timed(clock, { try base.open(url) }) { event(url, command: nil, $0.map { _ in () }) }
    }

    public func launch(_ url: WireText, command: BrowserCommand?) throws -> (any LaunchedBrowser)? {
        try trace.timed(clock, { try base.launch(url, command: command) }) { event(url, command: command, $0.map { _ in () }) }
    }

    private func event(_ url: WireText, command: BrowserCommand?, _ result: Result<Void, any Error>) -> TraceEvent {
        var fields = [TraceField("url", .wire(url))]
        if let command { fields.append(TraceField("browser_command", .text(command.words.first ?? ""))) }
        switch result {
        case .success: fields.append(TraceField("started", .flag(true)))
        case .failure(let error): fields.append(TraceField("error", .text(KCAuthError.wrapping(error).message)))
        }
        return TraceEvent("browser.launch", fields)
    }
}
