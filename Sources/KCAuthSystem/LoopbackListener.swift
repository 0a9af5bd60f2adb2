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
    /// More simultaneous connections than any browser opens to one origin; beyond it new
    /// connections are closed at once.
    static let maxConnections = 32

    private(set) var listenFD: Int32
    let port: UInt16
    /// The only path whose requests reach the judge.
    let path: String

    var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

    /// The one-shot start redirect (`startURL`): its path, and where it sends the browser.
    private var start: (path: String, location: String)?

    func startURL(redirectingTo location: String, secretPath: String) -> String {
        let path = "/" + secretPath
        start = (path, location)
        return "http://127.0.0.1:\(port)\(path)"
    }

    /// The start redirect's location if `path` is its path, used up by this call.
    private func takeStart(_ path: String) -> String? {
        guard let start, start.path == path else { return nil }
        self.start = nil
        return start.location
    }

    init(port requested: UInt16, path: String = callbackPath) throws {
        (listenFD, port) = try Self.listeningSocket(port: requested)
        self.path = path
    }

    deinit { close() }

    func close() {
        guard listenFD >= 0 else { return }
        Glibc.close(listenFD)
        listenFD = -1
    }

    func receive(timeout: Double, judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest {
        guard listenFD >= 0 else { throw KCAuthError(.internal, "the loopback listener is closed") }
        let deadline = monotonicSeconds() + timeout
        var connections: [LoopbackConnection] = []
        defer { for connection in connections { Glibc.close(connection.fd) } }

        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else {
                throw KCAuthError(.timedOut, "no response from the browser within \(humanSeconds(timeout)) s")
            }
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
            for connection in connections {
                fds.append(pollfd(fd: connection.fd, events: Int16(connection.isResponding ? POLLOUT : POLLIN), revents: 0))
            }
            let waitMillis = Int32(min((remaining * 1000).rounded(.up), 60_000))
            let ready = poll(&fds, nfds_t(fds.count), waitMillis)
            if ready < 0 {
                if errno == EINTR { continue }
                throw KCAuthError(.internal, "waiting for the browser failed", cause: String(cString: strerror(errno)))
            }
            guard ready > 0 else { continue }

            // Reverse order keeps the remaining indices (and their pollfd slots) valid on removal.
            for index in connections.indices.reversed() where fds[index + 1].revents != 0 {
                switch connections[index].advance(judge: judge, start: takeStart) {
                case .open:
                    break
                case .closed:
                    Glibc.close(connections.remove(at: index).fd)
                case .finished(let request):
                    Glibc.close(connections.remove(at: index).fd)
                    return request
                }
            }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptPending(into: &connections) }
        }
    }

    /// Accepts every queued connection (the listening socket is non-blocking).
    private func acceptPending(into connections: inout [LoopbackConnection]) {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // EAGAIN: queue drained; anything else: retry on the next wake-up
            }
            // accept4(SOCK_CLOEXEC) is not imported (it needs _GNU_SOURCE), so set the flags here.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            guard connections.count < Self.maxConnections else {
                Glibc.close(fd)
                continue
            }
            connections.append(LoopbackConnection(fd: fd, callbackPath: path))
        }
    }

    /// Seconds on the monotonic clock: a deadline must not move when the wall clock is adjusted.
    private func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
