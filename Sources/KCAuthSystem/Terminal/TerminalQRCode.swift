import CQREncode
import Glibc
import KCAuthCore

/// A QR code for a terminal (libqrencode), two modules per character cell with the Unicode
/// half blocks ▀ ▄ █, so it stays square and small enough for an 80×24 screen.
///
/// Readable whatever the terminal's colours: on a terminal (`.ansi`) every line sets black on
/// white itself; as plain text (`.plain`, for logs and `TERM=dumb`) the *light* modules are
/// drawn, as `qrencode -t UTF8` does, because logs are mostly shown light on dark. The quiet
/// zone (ISO/IEC 18004 §6.3.8: four modules) is part of the picture in both.
public enum TerminalQRCode {
    public enum Style: Sendable { case ansi, plain }

    public static let quietZone = 4

    /// The code's modules, row by row, `true` = dark, without the quiet zone. Error correction M
    /// (15 %): a phone reading a screen at an angle needs some.
    public static func matrix(for text: String) throws -> [[Bool]] {
        guard let code = kc_QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            let cause = kc_qrencode_load_error().map { String(cString: $0) } ?? String(cString: strerror(errno))
            throw KCAuthError(.internal, "cannot encode the link as a QR code", cause: cause)
        }
        defer { kc_QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
        return (0..<width).map { row in (0..<width).map { column in code.pointee.data[row * width + column] & 1 == 1 } }
    }

    /// The code as lines of text ending in "\n".
    public static func render(_ text: String, style: Style) throws -> String {
        render(matrix: try matrix(for: text), style: style)
    }

    static func render(matrix: [[Bool]], style: Style) -> String {
        let width = matrix.count + 2 * quietZone
        let light = [Bool](repeating: false, count: width)
        var rows = [[Bool]](repeating: light, count: quietZone)
        rows += matrix.map { [Bool](repeating: false, count: quietZone) + $0 + [Bool](repeating: false, count: quietZone) }
        rows += [[Bool]](repeating: light, count: quietZone + (rows.count + quietZone) % 2)

        var out = ""
        for pair in stride(from: 0, to: rows.count, by: 2) {
            var line = ""
            for column in 0..<width {
                // Which halves get ink: dark modules on an explicit white background, or light
                // modules as plain text.
                let top = rows[pair][column] == (style == .ansi)
                let bottom = rows[pair + 1][column] == (style == .ansi)
                line += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            out += style == .ansi ? "\u{1B}[30;107m" + line + "\u{1B}[0m\n" : line + "\n"
        }
        return out
    }
}
