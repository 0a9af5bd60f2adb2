/// What a credential-helper protocol writes to kcauth's standard input (git's key=value lines,
/// docker's server URL). A port so that the helpers' use cases run in-process in tests.
public protocol StandardInputSource: Sendable {
    /// Everything up to the end of input, or up to an empty line when `stopAtBlankLine` (git's
    /// end of a request), at most `limit` bytes (more is an error).
    func read(limit: Int, stopAtBlankLine: Bool) throws -> String
}
