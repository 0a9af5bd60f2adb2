/// A `command:` assertion source: a program that prints the assertion on stdout, for any
/// platform kcauth does not know (like gcloud's executable-sourced credentials). Run for each
/// token request with a deadline; its stdout, trimmed, is the assertion; what it says on stderr
/// reaches the person as it is.
public struct AssertionCommand: Sendable {
    /// Long enough for a helper that asks a platform service, short enough to fail a stuck job.
    public static let deadline: Double = 10
    /// The variable that tells the program which audience the provider expects.
    public static let audienceVariable = "KCAUTH_CLIENT_ASSERTION_AUDIENCE"

    let argv: [String]
    let runner: any AssertionCommandRunner

    public init(_ argv: [String], runner: any AssertionCommandRunner) {
        self.argv = argv
        self.runner = runner
    }

    /// The program's name for messages (its first word, one line).
    var program: String { Sanitize.oneLine(argv.first ?? "", limit: 200) }

    /// Runs it once. Throws `.configuration` naming the program when it cannot start, exits
    /// non-zero, runs past ``deadline``, prints too much, or prints nothing usable.
    public func run(audience: String?) throws -> Secret {
        guard !argv.isEmpty else { throw KCAuthError(.configuration, "the client assertion command names no program") }
        let outcome = try runner.run(argv, environment: audience.map { [Self.audienceVariable: $0] } ?? [:],
                                     seconds: Self.deadline, limit: ClientAssertionSource.sizeLimit)
        switch outcome {
        case .timedOut:
            throw KCAuthError(.configuration, "the client assertion command \(program) did not finish within \(Int(Self.deadline)) s; it was stopped")
        case .outputTooLarge:
            throw KCAuthError(.configuration, "the client assertion command \(program) printed more than \(ClientAssertionSource.sizeLimit) bytes; it was stopped")
        case .exited(let status, _) where status != 0:
            throw KCAuthError(.configuration, "the client assertion command \(program) failed (exit status \(status)); what it printed on stderr is above")
        case .exited(_, let output):
            guard let text = String(validating: output, as: UTF8.self) else {
                throw KCAuthError(.configuration, "the client assertion command \(program) printed something that is not UTF-8 text")
            }
            // Blanks and line breaks around it (a program's `echo`) are not part of it.
            var scalars = Substring(text).unicodeScalars
            let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
            while let first = scalars.first, blank(first) { scalars.removeFirst() }
            while let last = scalars.last, blank(last) { scalars.removeLast() }
            return Secret(.clientAssertion, String(scalars))
        }
    }
}
