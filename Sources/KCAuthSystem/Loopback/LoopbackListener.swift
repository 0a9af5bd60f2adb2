import Glibc
import KCAuthCore

/// A bound loopback listener serving one `poll()` loop over the listening socket and every
/// accepted connection.
///
/// Why one loop over all sockets: browsers pre-connect speculative sockets and keep idle ones
/// open. Serving connections one after another would let a silent socket block the real
/// redirect until the timeout. Single-threaded, so nothing here needs to be `Sendable`.
final class LoopbackListener: BoundRedirectListener {
    static let callbackPath = "/callback"

    private(set) var listenFD: Int32
    let port: UInt16
    /// The only path whose requests reach the judge.
    let path: String
    let limits: LoopbackLimits
    /// The landing pages' HTML, in the presentation's words.
    let pages: any LandingPageRenderer
    /// Whether the client of a connection may reach the start URL and the callback path
    /// (`LoopbackPeer`: this user or root, and never a peer of unknown owner); replaceable in
    /// tests.
    var peerCheck: (Int32) -> LoopbackPeer.Verdict = { LoopbackPeer.check($0) }
    /// Refused connections not yet taken by `takeRefusedConnections`.
    var refused: [RefusedConnection] = []

    var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

    /// The one-shot start redirect (`startURL`).
    var start: LoopbackStart?

    func startURL(redirectingTo location: WireText, secretPath: Secret) -> WireText {
        start = LoopbackStart(path: Secret(.startPath, "/" + secretPath.reveal()), location: location, binding: nil)
        return "http://127.0.0.1:\(port)/\(secretPath)"
    }

    func startURL(redirectingTo location: WireText, secretPath: Secret, binding: BrowserBinding) -> WireText {
        start = LoopbackStart(path: Secret(.startPath, "/" + secretPath.reveal()), location: location, binding: binding)
        return "http://127.0.0.1:\(port)/\(secretPath)"
    }

    func startURL(secretPath: Secret, binding: BrowserBinding, locating location: @escaping () throws -> WireText) -> WireText {
        start = LoopbackStart(path: Secret(.startPath, "/" + secretPath.reveal()), binding: binding, locating: location)
        return "http://127.0.0.1:\(port)/\(secretPath)"
    }

    func startURLToShow(secretPath: Secret) -> WireText? {
        guard start?.binding != nil, "/" + secretPath.reveal() != start?.path.reveal() else { return nil }
        start?.shownPath = Secret(.startPath, "/" + secretPath.reveal())
        return "http://127.0.0.1:\(port)/\(secretPath)"
    }

    /// Where the listener says which connections it served, refused or ignored (`--debug`).
    let trace: any TraceSink

    init(port requested: UInt16, path: String = callbackPath, pages: any LandingPageRenderer, limits: LoopbackLimits = .standard,
         trace: any TraceSink = NoTrace()) throws {
        (listenFD, port) = try Self.listeningSocket(port: requested)
        self.path = path
        self.pages = pages
        self.limits = limits
        self.trace = trace
        trace.emit(TraceEvent("loopback.listening", ("address", .text("127.0.0.1:\(port)")), ("path", .text(path))))
    }

    deinit { close() }

    func close() {
        guard listenFD >= 0 else { return }
        Glibc.close(listenFD)
        listenFD = -1
    }

    func takeRefusedConnections() -> [RefusedConnection] {
        defer { refused = [] }
        return refused
    }

    /// Whether a browser followed the binding start URL or the one shown.
    var browserBound: Bool { start?.bound ?? false }

    func receive(timeout: Double, judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest {
        try receive(timeout: timeout, tickEvery: .infinity, tick: { nil }, judge: judge)
    }

    func receive(timeout: Double, tickEvery interval: Double, tick: () throws -> CallbackRequest?,
                 judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest {
        guard listenFD >= 0 else { throw KCAuthError(.internal, "the loopback listener is closed") }
        let deadline = monotonicSeconds() + timeout
        var connections: [LoopbackConnection] = []
        defer { for connection in connections { Glibc.close(connection.fd) } }
        var nextTick = monotonicSeconds()

        while true {
            if monotonicSeconds() >= nextTick {
                if let request = try tick() { return request }
                nextTick = monotonicSeconds() + (interval.isFinite ? max(interval, 0.01) : .infinity)
            }
            guard deadline - monotonicSeconds() > 0 else {
                throw KCAuthError(.timedOut, "no response from the browser within \(humanSeconds(timeout)) s")
            }
            guard let fds = try waitForEvents(on: connections, until: min(deadline, nextTick)) else { continue }
            let now = monotonicSeconds()
            let refusedBefore = refused.count
            if let request = try serve(&connections, ready: fds, now: now, judge: judge) { return request }
            if refused.count > refusedBefore { nextTick = now }  // say it now, not at the next tick
            if fds[0].revents & Int16(POLLIN) != 0 { acceptPending(into: &connections, now: now) }
        }
    }

    /// Waits until `wake` at most (sooner for a connection's own deadline) for the listening socket
    /// or a connection to be ready; returns the polled descriptors, the listener's first, or nil
    /// when a signal interrupted the wait (the caller loops).
    private func waitForEvents(on connections: [LoopbackConnection], until wake: Double) throws -> [pollfd]? {
        var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
        var wake = wake
        for connection in connections {
            fds.append(pollfd(fd: connection.fd, events: Int16(connection.isResponding ? POLLOUT : POLLIN), revents: 0))
            wake = min(wake, connection.deadline(limits))
        }
        let waitMillis = Int32(min(max((wake - monotonicSeconds()) * 1000, 0).rounded(.up), 60_000))
        if poll(&fds, nfds_t(fds.count), waitMillis) < 0 {
            if errno == EINTR { return nil }
            throw KCAuthError(.internal, "waiting for the browser failed", cause: String(cString: strerror(errno)))
        }
        return fds
    }

    /// Moves every connection that is ready (by `fds`, polled in the same order after the
    /// listener's slot) or past its deadline one step; closes those that are done. Returns the
    /// request that finished the sign-in, throws what aborted it, nil to go on waiting.
    private func serve(_ connections: inout [LoopbackConnection], ready fds: [pollfd], now: Double,
                       judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest? {
        // Reverse order keeps the remaining indices (and their pollfd slots) valid on removal.
        for index in connections.indices.reversed() {
            let progress: LoopbackConnection.Progress
            if fds[index + 1].revents != 0 {
                let fd = connections[index].fd
                progress = connections[index].advance(now: now) { answer($0, fd: fd, judge: judge) }
            } else if connections[index].deadline(limits) <= now {
                progress = connections[index].expired  // idle, too slow, or not reading
            } else {
                continue
            }
            switch progress {
            case .open:
                break
            case .closed:
                Glibc.close(connections.remove(at: index).fd)
            case .finished(let request):
                Glibc.close(connections.remove(at: index).fd)
                return request
            case .aborted(let error):
                Glibc.close(connections.remove(at: index).fd)
                throw error
            }
        }
        return nil
    }

    /// Accepts every queued connection (the listening socket is non-blocking).
    ///
    /// When every slot is taken, the connection that has waited longest for its request is
    /// dropped to make room: silent connections must not lock the browser out (`LoopbackLimits`).
    private func acceptPending(into connections: inout [LoopbackConnection], now: Double) {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // EAGAIN: queue drained; anything else: retry on the next wake-up
            }
            // accept4(SOCK_CLOEXEC) is not imported (it needs _GNU_SOURCE), so set the flags here.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if connections.count >= limits.maxConnections {
                let reading = connections.indices.filter { !connections[$0].isResponding }
                guard let oldest = reading.min(by: { connections[$0].acceptedAt < connections[$1].acceptedAt }) else {
                    Glibc.close(fd)  // every slot is sending a page: the new one waits for none of them
                    continue
                }
                Glibc.close(connections.remove(at: oldest).fd)
            }
            connections.append(LoopbackConnection(fd: fd, now: now))
        }
    }

    /// Seconds on the monotonic clock: a deadline must not move when the wall clock is adjusted.
    func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
