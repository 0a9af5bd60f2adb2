import Glibc
import KCAuthCore

extension LoopbackListener {
    /// The answer to one complete request on connection `fd`, traced (`--debug`): the request
    /// (its start path and query values redacted), the peer's uid and the status.
    func answer(_ request: LoopbackConnection.Request, fd: Int32,
                judge: (CallbackRequest) -> CallbackVerdict) -> LoopbackAnswer {
        var peer: LoopbackPeer.Verdict?
        let answer = route(request, fd: fd, peer: &peer, judge: judge)
        trace.emit(traced(request, peer: peer, status: answer.status))
        return answer
    }

    private func route(_ request: LoopbackConnection.Request, fd: Int32, peer: inout LoopbackPeer.Verdict?,
                       judge: (CallbackRequest) -> CallbackVerdict) -> LoopbackAnswer {
        guard request.method == "GET" else {
            // RFC 9110 §15.5.6: a 405 must list the allowed methods.
            return .small(405, "Method not allowed", headers: ["Allow: GET"])
        }
        let isStart = start.map { $0.path.reveal() == request.path } ?? false
        let isShown = start?.shownPath.map { $0.reveal() == request.path } ?? false
        // Only the redirect URI is shown to the judge; /favicon.ico and friends are not.
        guard isStart || isShown || request.path == path else { return .small(404, "Not found") }
        // Another user's program must not take the start URL (it is in the browser's argv) nor
        // deliver a sign-in of its own (`LoopbackPeer`); RFC 9110 §15.5.4: 403 Forbidden.
        let verdict = peerCheck(fd)
        peer = verdict
        if case .refused(let uid) = verdict {
            refused.append(RefusedConnection(uid: uid))
            return .small(403, "Forbidden")
        }
        if isStart, var start { return answerStart(&start) }
        if isShown, var start { return answerShown(&start) }
        return answerCallback(request, judge: judge)
    }

    /// The start URL shown to the person: as the start URL's first answer, every time (a second
    /// browser of theirs on this machine; the peer check above keeps other users out).
    private func answerShown(_ start: inout LoopbackStart) -> LoopbackAnswer {
        defer { self.start = start }
        start.useShown()
        return redirect(&start)
    }

    /// `loopback.request`: what was asked (the start path and every query value but an error's
    /// as secrets), by whom, and the answer's status.
    private func traced(_ request: LoopbackConnection.Request, peer: LoopbackPeer.Verdict?, status: Int) -> TraceEvent {
        let isStart = start.map { $0.path.reveal() == request.path } ?? false
        let shown = start?.shownPath.flatMap { $0.reveal() == request.path ? $0 : nil }
        var fields = [TraceField("method", .text(Sanitize.oneLine(request.method, limit: 16))),
                      TraceField("path", isStart ? .secret(start!.path)
                          : shown.map { .secret($0) } ?? .text(Sanitize.oneLine(request.path, limit: 200)))]
        if let query = request.query { fields.append(TraceField("query", TracedQuery.value(query))) }
        switch peer {
        case .allowed(let uid)?: fields += [TraceField("peer_uid", .int(Int(uid))), TraceField("peer", .text("accepted"))]
        case .refused(let uid)?: fields += [TraceField("peer_uid", uid.map { .int(Int($0)) } ?? .text("unknown")), TraceField("peer", .text("refused"))]
        case nil: break
        }
        fields.append(TraceField("status", .int(status)))
        return TraceEvent("loopback.request", fields)
    }

    private func answerStart(_ start: inout LoopbackStart) -> LoopbackAnswer {
        defer { self.start = start }
        if !start.used {
            start.use()
            return redirect(&start)
        }
        guard let binding = start.binding else { return .small(404, "Not found") }  // used up
        // Two clients followed the start URL: one of them is not the browser kcauth started, and
        // nothing tells which. Neither may finish this login.
        return answer(.startUsedTwice, after: .abort(binding.reusedStartError))
    }

    /// The start URL's answer: on to the provider, with the binding's cookie.
    private func redirect(_ start: inout LoopbackStart) -> LoopbackAnswer {
        let location: WireText
        do { location = try start.locate() } catch {
            // The push (or whatever made the location) failed: the browser is told, and the
            // login ends with that error.
            let failure = KCAuthError.wrapping(error)
            return answer(.signInFailed(failure), after: .abort(failure))
        }
        // RFC 9110 §15.4.3: 302 Found; the page is for clients that do not follow it.
        var headers = ["Location: \(location.reveal())"]
        if let cookie = start.setCookieHeader(callbackPath: path) { headers.append(cookie) }
        return .small(302, "Continue at the provider", headers: headers)
    }

    private func answerCallback(_ request: LoopbackConnection.Request,
                                judge: (CallbackRequest) -> CallbackVerdict) -> LoopbackAnswer {
        // Once a browser followed the start URL (or the one shown), only a browser with its cookie
        // may deliver the response. Before that, nobody has the cookie.
        if let start, start.bound, let binding = start.binding {
            let presented = HTTPRequestHead.cookie(binding.cookieName, in: request.head)
            guard let presented, constantTimeEquals(presented, binding.cookieValue.reveal()) else {
                return answer(.otherBrowser)
            }
        }
        let callback = CallbackRequest(parameters: FormEncoding.decode(request.query ?? ""))
        switch judge(callback) {
        case .keepWaiting(let page):
            return answer(page)
        case .finish(let page):
            return answer(page, after: .finish(callback))
        }
    }

    /// A landing page in the presentation's words (`pages`).
    private func answer(_ page: LandingPage, after: LoopbackAnswer.After = .close) -> LoopbackAnswer {
        LoopbackAnswer(status: page.status, html: pages.html(page), after: after)
    }

    private func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
