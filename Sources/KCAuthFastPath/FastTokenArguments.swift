import KCAuthContract

/// The only command lines ``FastTokenPath`` answers: `token`, optionally with `--profile NAME`
/// (or `--profile=NAME`) and `-o FORMAT` / `--output FORMAT` / `--output=FORMAT`, each at most
/// once. Anything else (other flags, a repeated flag, a missing value) is nil: the full argument
/// parser then gives its usual answer, error messages included.
struct FastTokenArguments: Equatable {
    var profile: String?
    var format: FastTokenOutput.Format = .raw

    init?(_ arguments: [String]) {
        guard arguments.first == "token" else { return nil }
        var sawProfile = false, sawFormat = false
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            var name = arg, value: String?
            // `--name=value` split over bytes (no String prefix or index operations: docs/performance.md §4).
            if let eq = Self.longOptionEquals(arg) {
                let utf8 = Array(arg.utf8)
                name = String(decoding: utf8[..<eq], as: UTF8.self)
                value = String(decoding: utf8[(eq + 1)...], as: UTF8.self)
            }
            switch name {
            case "--profile", "--output", "-o":
                if value == nil {
                    guard i + 1 < arguments.count else { return nil }
                    value = arguments[i + 1]
                    i += 1
                }
            default:
                return nil
            }
            guard let value, !value.isEmpty else { return nil }
            if name == "--profile" {
                guard !sawProfile else { return nil }
                sawProfile = true
                profile = value
            } else {
                guard !sawFormat, let format = FastTokenOutput.Format(rawValue: value) else { return nil }
                sawFormat = true
                self.format = format
            }
            i += 1
        }
    }

    /// The byte offset of the first `=` of an argument that starts with `--`, nil otherwise. An
    /// argument whose `=` or leading dashes are followed by a non-ASCII byte (a combining mark
    /// makes another character) is left whole, as the String operations would (`--profile=`
    /// followed by a mark is no `--profile`, and the command then goes to the full program).
    static func longOptionEquals(_ arg: String) -> Int? {
        var copy = arg
        return copy.withUTF8 { b in
            guard b.count >= 2, b[0] == 0x2D, b[1] == 0x2D, b.count == 2 || b[2] < 0x80 else { return nil }
            var i = 2
            while i < b.count, b[i] != 0x3D { i += 1 }
            guard i < b.count else { return nil }
            guard b[i - 1] < 0x80, i + 1 == b.count || b[i + 1] < 0x80 else { return nil }
            return i
        }
    }
}
