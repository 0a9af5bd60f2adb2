/// Draws a link as a QR code for a terminal (the device flow's link, for a phone).
public protocol QRCodeRenderer: Sendable {
    /// The code as text lines; `colour`: the terminal takes ANSI escape sequences. Throws when
    /// no code can be drawn here (no libqrencode).
    func render(_ text: String, colour: Bool) throws -> String
}
