import Foundation
import KCAuthCore

/// Standard input with a scripted text (a credential helper's request), counting the reads.
public final class ScriptedStandardInput: StandardInputSource, @unchecked Sendable {
    private let lock = NSLock()
    public var text: String
    public private(set) var reads = 0

    public init(_ text: String = "") { self.text = text }

    public func read(limit: Int, stopAtBlankLine: Bool) throws -> String {
        try lock.withLock {
            reads += 1
            guard text.utf8.count <= limit else { throw KCAuthError(.usage, "more than \(limit) bytes on standard input") }
            guard stopAtBlankLine, let blank = text.range(of: "\n\n") else { return text }
            return String(text[..<blank.upperBound])
        }
    }
}
