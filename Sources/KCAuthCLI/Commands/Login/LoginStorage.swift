import KCAuth
import KCAuthContract
import KCAuthCore

/// `login`'s `-o`: the token once on stdout (the way to use a `--storage memory` login), and
/// the words for what the storage choice did.
enum LoginStorage {
    static let output = OptionSpec("output", short: "o", value: "FORMAT",
                                   help: "Also print the access token on stdout (for --storage memory)",
                                   choices: TokenFormat.loginChoices.map(\.rawValue))

    /// The `-o` asked for.
    static func format(_ command: ParsedCommand) -> TokenFormat? { command.value(output).flatMap(TokenFormat.init(rawValue:)) }

    /// "add -o raw or -o json".
    static var printHint: String { "add " + TokenFormat.loginChoices.map { "-\(output.short!) \($0.rawValue)" }.joined(separator: " or ") }

    static func report(_ event: Login.Event, profile: String, console: any Console) {
        switch event {
        case .movedStore(let from, let to):
            console.err("Moved profile '\(profile)' to the \(to.rawValue) store: removed its old copy from the \(from).\n")
        case .oldCopyNotRemoved(let from, let error):
            console.err("warning: could not remove the old copy of profile '\(profile)' from the \(from): "
                        + "\(Sanitize.oneLine(MessageWords.message(error))); remove it once that works again\n")
        case .warning(let text):
            console.err(text + "\n")
        default:
            break
        }
    }

    /// After a successful login: the token once on stdout with `-o`, and for memory a note that
    /// nothing was kept.
    static func deliver(_ output: Login.Output, format: TokenFormat?, profile: String, now: Instant, console: any Console) {
        if let format {
            console.out(format.render(IssuedToken(output.state), idToken: false, profile: profile, now: now))
        } else if output.storage == .memory {
            console.err("Nothing was kept (--storage memory): the session ends with this command; "
                        + "\(printHint) to print the access token.\n")
        }
    }
}
