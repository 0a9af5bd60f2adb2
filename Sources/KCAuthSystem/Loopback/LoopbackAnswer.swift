import KCAuthCore

/// What the listener answers one request with, and what happens after the answer is sent.
struct LoopbackAnswer {
    enum After {
        /// Close this connection; keep listening.
        case close
        /// `receive` returns this request (a `.finish` verdict).
        case finish(CallbackRequest)
        /// `receive` throws: the login is over (a second use of a binding start URL).
        case abort(KCAuthError)
    }

    var status: Int
    var html: String
    var headers: [String] = []
    var after: After = .close

    static func small(_ status: Int, _ title: String, headers: [String] = []) -> LoopbackAnswer {
        LoopbackAnswer(status: status, html: LoopbackPages.small(title), headers: headers)
    }
}
