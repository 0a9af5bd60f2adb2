import KCAuthCore

/// A QR renderer that draws the link as one line, so a test can see that a code was shown and
/// what it holds.
public struct FakeQRCode: QRCodeRenderer {
    public init() {}

    public func render(_ text: String, colour: Bool) throws -> String { "[QR code: \(text)]" }
}
