import KCAuthCore

/// The real ``StandardInputSource``: kcauth's stdin, read bounded (``StandardInput``).
public struct SystemStandardInput: StandardInputSource {
    public init() {}

    public func read(limit: Int, stopAtBlankLine: Bool) throws -> String {
        try StandardInput.read(limit: limit, stopAtBlankLine: stopAtBlankLine)
    }
}
