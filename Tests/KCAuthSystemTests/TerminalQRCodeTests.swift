import Testing
@testable import KCAuthSystem

/// The terminal QR code: libqrencode's matrix, drawn with half blocks, read back module by module.
@Suite struct TerminalQRCodeTests {
    static let link = "https://sso.example.test/realms/demo/device?user_code=WDJB-MJHT"

    /// Reads the drawing back: one character is two modules, `dark` tells what ink means.
    static func modules(_ text: String, inkIsDark: Bool) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n") {
            var plain = String(line)
            if plain.hasPrefix("\u{1B}[30;107m") { plain = String(plain.dropFirst(9).dropLast(4)) }
            rows.append(plain.map { ($0 == "▀" || $0 == "█") == inkIsDark })
            rows.append(plain.map { ($0 == "▄" || $0 == "█") == inkIsDark })
        }
        return rows
    }

    static func withQuietZone(_ m: [[Bool]]) -> [[Bool]] {
        let q = TerminalQRCode.quietZone, width = m.count + 2 * q
        let blank = [Bool](repeating: false, count: width)
        var rows = [[Bool]](repeating: blank, count: q)
        rows += m.map { [Bool](repeating: false, count: q) + $0 + [Bool](repeating: false, count: q) }
        rows += [[Bool]](repeating: blank, count: q)
        return rows
    }

    @Test func theMatrixHasItsFinderPatterns() throws {
        let m = try TerminalQRCode.matrix(for: Self.link)
        #expect(m.count >= 21 && (m.count - 21) % 4 == 0 && m.allSatisfy { $0.count == m.count })
        // ISO/IEC 18004 §6.3.3: a 7×7 dark ring, a light ring, a 3×3 dark core, in three corners.
        for (r0, c0) in [(0, 0), (0, m.count - 7), (m.count - 7, 0)] {
            for r in 0..<7 {
                for c in 0..<7 {
                    let ring = r == 0 || r == 6 || c == 0 || c == 6
                    let core = (2...4).contains(r) && (2...4).contains(c)
                    #expect(m[r0 + r][c0 + c] == (ring || core), "finder pattern at (\(r0), \(c0))")
                }
            }
        }
    }

    @Test(arguments: [TerminalQRCode.Style.plain, .ansi])
    func theDrawingReadsBackAsTheMatrixWithAQuietZone(style: TerminalQRCode.Style) throws {
        let m = try TerminalQRCode.matrix(for: Self.link)
        let text = try TerminalQRCode.render(Self.link, style: style)
        var read = Self.modules(text, inkIsDark: style == .ansi)
        let expected = Self.withQuietZone(m)
        // An odd number of rows gets one more light row to fill the last line's lower half.
        #expect(read.count == expected.count + 1)
        #expect(read.removeLast().allSatisfy { !$0 })
        #expect(read == expected)
    }

    @Test func plainTextHasNoControlCharacters() throws {
        let text = try TerminalQRCode.render(Self.link, style: .plain)
        #expect(text.unicodeScalars.allSatisfy { $0 == "\n" || $0.value >= 0x20 })
        #expect(Set(text).isSubset(of: [" ", "▀", "▄", "█", "\n"]))
        let widths = Set(text.split(separator: "\n").map(\.count))
        #expect(widths.count == 1, "every line is as wide as the code plus its quiet zone")
        #expect(text.split(separator: "\n").first?.allSatisfy { $0 == "█" } == true, "the quiet zone is drawn as light")
    }

    @Test func onATerminalEveryLineSetsItsOwnColours() throws {
        let text = try TerminalQRCode.render(Self.link, style: .ansi)
        for line in text.split(separator: "\n") {
            #expect(line.hasPrefix("\u{1B}[30;107m") && line.hasSuffix("\u{1B}[0m"), "black on white, whatever the theme")
        }
    }
}
