/// What a person types at the terminal: the first-run questions of `kcauth login`
/// (`FirstRunQuestions`). A port so that tests answer in-process and the CLI can tell a person from
/// a pipe.
public protocol TerminalInput: Sendable {
    /// Standard input is a terminal: someone may be there to answer.
    var isInteractive: Bool { get }
    /// One line, without its line break; nil at the end of the input (Ctrl-D).
    func readLine() -> String?
}
