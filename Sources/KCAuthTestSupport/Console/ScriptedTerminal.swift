import KCAuthCore

/// A person at a terminal who types the given lines, one per question, then Ctrl-D; or, with
/// `interactive: false`, a pipe (nobody to ask).
public final class ScriptedTerminal: TerminalInput, @unchecked Sendable {
    public let isInteractive: Bool
    public private(set) var lines: [String]
    public private(set) var asked = 0

    public init(interactive: Bool = true, lines: [String] = []) {
        isInteractive = interactive
        self.lines = lines
    }

    public func readLine() -> String? {
        asked += 1
        return lines.isEmpty ? nil : lines.removeFirst()
    }
}
