/// What to answer a callback request with, and whether to stop listening.
public enum CallbackVerdict: Sendable, Equatable {
    /// Answer with this page and keep waiting (e.g. a request with the wrong `state`).
    case keepWaiting(LandingPage)
    /// Answer with this page and stop: `receive` returns this request.
    case finish(LandingPage)
}
