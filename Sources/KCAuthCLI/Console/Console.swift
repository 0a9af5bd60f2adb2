#if canImport(Glibc)
import Glibc
#endif

/// Where output goes: stdout is for data (a token, JSON), stderr is for people.
public protocol Console: Sendable {
    func out(_ text: String)
    func err(_ text: String)
    /// Whether stderr is a terminal (for colour and progress lines).
    var stderrIsTTY: Bool { get }
}
