import FoundationEssentials

/// The process environment, read once at start.
public enum ProcessEnvironment {
    public static var current: [String: String] { ProcessInfo.processInfo.environment }
}
