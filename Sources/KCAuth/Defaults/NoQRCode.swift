import KCAuthCore

/// A QR renderer for adapters that draw none (tests over fakes, a program that builds its own
/// adapters): the login says the link and the code in words only.
public struct NoQRCode: QRCodeRenderer {
    public init() {}

    public func render(_ text: String, colour: Bool) throws -> String {
        throw KCAuthError(.internal, "no QR code renderer")
    }
}
