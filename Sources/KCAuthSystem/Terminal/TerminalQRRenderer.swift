import KCAuthCore

/// `QRCodeRenderer` over libqrencode (`TerminalQRCode`).
public struct TerminalQRRenderer: QRCodeRenderer {
    public init() {}

    public func render(_ text: String, colour: Bool) throws -> String {
        try TerminalQRCode.render(text, style: colour ? .ansi : .plain)
    }
}
