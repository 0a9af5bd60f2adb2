/// One block of man page text.
enum ManBlock: Sendable {
    /// A paragraph of prose (markup: see `Roff.prose`).
    case text(String)
    /// A tagged paragraph: the tag on its own line, the text indented below it.
    case item(String, String)
    /// A tagged paragraph whose tag is roff already (an option with its italic placeholder).
    case roffItem(String, String)
    /// Literal lines, set in a fixed-width font and never filled.
    case example([String])
}
