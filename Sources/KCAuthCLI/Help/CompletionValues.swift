/// What a shell offers for a value (an option's or a positional argument's) when you press Tab.
public enum CompletionValues: Sendable, Equatable {
    /// Free text (a URL, a number): nothing to offer.
    case nothing
    case choices([String])
    /// These words offered, others accepted too: a positional argument that is not held to a
    /// list (a credential helper's action: git may grow new ones, which a helper ignores).
    case offered([String])
    /// The profile names, from `kcauth profiles --names` run at completion time.
    case profiles
    /// kcauth's command names.
    case commands
    case files
}
