/// What a shell offers for a value (an option's or a positional argument's) when you press Tab.
public enum CompletionValues: Sendable, Equatable {
    /// Free text (a URL, a number): nothing to offer.
    case nothing
    case choices([String])
    /// The profile names, from `kcauth profiles --names` run at completion time.
    case profiles
    /// kcauth's command names.
    case commands
    case files
}
