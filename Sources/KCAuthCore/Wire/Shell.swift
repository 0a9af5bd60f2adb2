/// Text that a POSIX shell reads back exactly.
public enum Shell {
    /// Single quotes keep every byte literal; a quote inside becomes '\''.
    public static func quote(_ s: String) -> String {
        "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
