import KCAuthContract

/// kcauth installed under a credential helper's name (a symlink) runs that helper: git runs
/// `git-credential-kcauth get` for `credential.helper = kcauth`, docker runs
/// `docker-credential-kcauth get` for `credsStore`/`credHelpers` = `kcauth`. Which names these
/// are, and the command each stands for, is the helper table (``CredentialHelper``).
public enum ProgramName {
    /// The arguments to parse, given the full argv (program name first): under a helper's
    /// program name, that helper's command first.
    public static func arguments(_ argv: [String]) -> [String] {
        let rest = Array(argv.dropFirst())
        guard let program = argv.first else { return rest }
        let name = program.lastIndex(of: "/").map { String(program[program.index(after: $0)...]) } ?? program
        guard let helper = CredentialHelper.named(program: name) else { return rest }
        return [helper.command] + rest
    }
}
