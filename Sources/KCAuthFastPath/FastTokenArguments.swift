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
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                value = String(arg[arg.index(after: eq)...])
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
}
