/// kcauth installed under a credential helper's name (a symlink) runs that helper: git runs
/// `git-credential-kcauth get` for `credential.helper = kcauth`, docker runs
/// `docker-credential-kcauth get` for `credsStore`/`credHelpers` = `kcauth`.
public enum ProgramName {
    /// The helper names and the command each one runs, for the man page and the install
    /// layout. `arguments` spells them out again: it runs before the fast path and must not
    /// touch this array's metadata.
    public static let helpers: [(program: String, command: String)] = [
        ("git-credential-kcauth", "git-credential"), ("docker-credential-kcauth", "docker-credential"),
    ]

    /// The arguments to parse, given the full argv (program name first). It runs before the
    /// warm-cache fast path of `kcauth token`, so it uses no dictionary or set (their first use
    /// costs a runtime metadata lookup) and does nothing more for a plain `kcauth`.
    public static func arguments(_ argv: [String]) -> [String] {
        let rest = Array(argv.dropFirst())
        guard let program = argv.first, program.hasSuffix("-credential-kcauth") else { return rest }
        let name = program.lastIndex(of: "/").map { String(program[program.index(after: $0)...]) } ?? program
        switch name {
        case "git-credential-kcauth": return ["git-credential"] + rest
        case "docker-credential-kcauth": return ["docker-credential"] + rest
        default: return rest
        }
    }
}
