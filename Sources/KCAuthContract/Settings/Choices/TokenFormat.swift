/// The formats of `kcauth token -o` (and `refresh -o`; `login -o` offers ``loginChoices``): the
/// full program renders every one (KCAuthCLI's `TokenOutput`), the front the ones it can serve
/// warm from the runtime cache (KCAuthFastPath's `FastTokenOutput`), both from these words.
public enum TokenFormat: String, Sendable, CaseIterable {
    case raw, header, json, env
    case execCredential = "exec-credential"
    case curl
    /// The request headers as one JSON object, for programs that run a headers-helper command.
    case headersJSON = "headers-json"

    /// What `login -o` prints the new token as.
    public static let loginChoices: [TokenFormat] = [.raw, .json]
}
