import Glibc
import KCAuthCore

extension LoopbackListener {
    /// The answer to one complete request on connection `fd`.
    func answer(_ request: LoopbackConnection.Request, fd: Int32,
                judge: (CallbackRequest) -> CallbackVerdict) -> LoopbackAnswer {
        guard request.method == "GET" else {
            // RFC 9110 §15.5.6: a 405 must list the allowed methods.
            return .small(405, "Method not allowed", headers: ["Allow: GET"])
        }
        let isStart = start.map { $0.path == request.path } ?? false
        let isShown = start?.shownPath == request.path
        // Only the redirect URI is shown to the judge; /favicon.ico and friends are not.
        guard isStart || isShown || request.path == path else { return .small(404, "Not found") }
        // Another user's program must not take the start URL (it is in the browser's argv) nor
        // deliver a sign-in of its own (`LoopbackPeer`); RFC 9110 §15.5.4: 403 Forbidden.
        if case .refused(let uid) = peerCheck(fd) {
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
        let location: String
        do { location = try start.locate() } catch {
            let failure = KCAuthError.wrapping(error)
            return answer(.signInFailed(failure), after: .abort(failure))
        }
        var headers = ["Location: \(location)"]
        if let cookie = start.setCookieHeader(callbackPath: path) { headers.append(cookie) }
        return .small(302, "Continue at the provider", headers: headers)
    }

    private func answerStart(_ start: inout LoopbackStart) -> LoopbackAnswer {
        defer { self.start = start }
        if !start.used {
            start.use()
            let location: String
            do { location = try start.locate() } catch {
                // The push (or whatever made the location) failed: the browser is told, and the
                // login ends with that error.
                let failure = KCAuthError.wrapping(error)
                return answer(.signInFailed(failure), after: .abort(failure))
            }
            // RFC 9110 §15.4.3: 302 Found; the page is for clients that do not follow it.
            var headers = ["Location: \(location)"]
            if let cookie = start.setCookieHeader(callbackPath: path) { headers.append(cookie) }
            return .small(302, "Continue at the provider", headers: headers)
        }
        guard let binding = start.binding else { return .small(404, "Not found") }  // used up
        // Two clients followed the start URL: one of them is not the browser kcauth started, and
        // nothing tells which. Neither may finish this login.
        return answer(.startUsedTwice, after: .abort(binding.reusedStartError))
    }

    private func answerCallback(_ request: LoopbackConnection.Request,
                                judge: (CallbackRequest) -> CallbackVerdict) -> LoopbackAnswer {
        // Once a browser followed the start URL (or the one shown), only a browser with its cookie
        // may deliver the response. Before that, nobody has the cookie.
        if let start, start.bound, let binding = start.binding {
            let presented = HTTPRequestHead.cookie(binding.cookieName, in: request.head)
            guard let presented, constantTimeEquals(presented, binding.cookieValue) else {
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
