/// A small self-contained HTML page for the browser.
public struct LandingPage: Sendable, Equatable {
    public var status: Int
    public var html: String
    public init(status: Int, html: String) {
        self.status = status
        self.html = html
    }
}
