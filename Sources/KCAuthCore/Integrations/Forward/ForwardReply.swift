/// How an exchange over a forwarded socket went (``ForwardConnector``).
public enum ForwardReply: Sendable, Equatable {
    /// The answer line.
    case answer([UInt8])
    /// The request could not be written (the laptop's side is gone or stuck).
    case notTaken
    /// No answer line in time.
    case noAnswer
    /// The connection was closed without an answer: nothing answers at the laptop's end (the
    /// `kcauth ssh` there was stopped).
    case closed
}
