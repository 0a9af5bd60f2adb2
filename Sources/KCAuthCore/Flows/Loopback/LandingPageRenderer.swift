/// Turns a landing page (`LandingPage`) into the self-contained HTML the loopback listener
/// serves. The presentation side provides it (the CLI's pages name its commands).
public protocol LandingPageRenderer: Sendable {
    func html(_ page: LandingPage) -> String
}
