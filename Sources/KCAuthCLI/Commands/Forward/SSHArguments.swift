import KCAuthCore

/// The user's `ssh` command line, split the way ssh reads it: options (with their arguments),
/// the destination, and the remote command. `kcauth ssh` passes all of it through unchanged; it
/// only needs the destination (to name the forward) and to refuse the options that would take
/// over the control connection it runs the session through.
struct SSHArguments: Equatable {
    /// ssh's options that take an argument (ssh(1), OpenSSH 9).
    static let withArgument = Set("BbcDEeFIiJLlmOoPpQRSWw")
    /// Options that would replace or bypass the connection kcauth sets up: a control socket of
    /// their own (-S, -M, -O), going to the background (-f), or no session (-N, -W).
    static let refused = Set("SMOfNW")
    static let forwardings = Set("LRD")

    /// Each option as given: its word, and its value's word when separate.
    var options: [[String]]
    /// The options without forwardings (-L, -R, -D): what the control connection gets, so that
    /// the session's own ssh sets each forwarding up once.
    var connectionOptions: [String] {
        options.filter { group in !Self.letters(group[0]).contains(where: { Self.forwardings.contains($0) }) }.flatMap { $0 }
    }

    /// The option letters of a word: up to the first that takes an argument (`-oLogLevel=…` is
    /// the letter o and a value).
    static func letters(_ word: String) -> [Character] {
        var letters: [Character] = []
        for letter in word.dropFirst() {
            letters.append(letter)
            if withArgument.contains(letter) { break }
        }
        return letters
    }
    var destination: String
    var command: [String]

    init(_ arguments: [String]) throws {
        var options: [[String]] = []
        var i = 0
        while i < arguments.count, arguments[i].hasPrefix("-"), arguments[i] != "-" {
            let arg = arguments[i]
            if arg == "--" { i += 1; break }
            var group = [arg]
            // A cluster of flags ends at the first letter that takes an argument: the rest of
            // the word is its value, or the next word is.
            for (offset, letter) in arg.dropFirst().enumerated() {
                if Self.refused.contains(letter) {
                    throw KCAuthError(.usage, "kcauth ssh does not take ssh's -\(letter)",
                                      hint: "kcauth ssh runs the session over its own control connection; use plain ssh for -\(letter)")
                }
                if Self.withArgument.contains(letter) {
                    if offset == arg.count - 2 {
                        i += 1
                        guard i < arguments.count else { throw KCAuthError(.usage, "ssh's -\(letter) needs a value") }
                        group.append(arguments[i])
                    }
                    break
                }
            }
            options.append(group)
            i += 1
        }
        guard i < arguments.count else {
            throw KCAuthError(.usage, "kcauth ssh needs a destination", hint: "kcauth ssh [flags] [SSH-OPTIONS] DESTINATION [COMMAND...]")
        }
        self.options = options
        destination = arguments[i]
        command = Array(arguments[(i + 1)...])
    }
}
