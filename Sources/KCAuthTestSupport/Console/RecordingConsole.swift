import KCAuthCLI

/// A console double that records what a command wrote where.
public final class RecordingConsole: Console, @unchecked Sendable {
    public var stdout = ""
    public var stderr = ""
    public let stderrIsTTY: Bool
    public init(tty: Bool = false) { stderrIsTTY = tty }
    public func out(_ text: String) { stdout += text }
    public func err(_ text: String) { stderr += text }
}
