/// Lines the person types or pastes at the terminal (paste-back, `PastedRedirect`), read without
/// blocking so that the loopback listener keeps serving the browser meanwhile.
public protocol LineInput: AnyObject, Sendable {
    /// The complete lines that arrived since the last call (without their line ends), or nil
    /// once the input has ended (end of file, or it is no longer readable).
    func availableLines() -> [String]?
}
