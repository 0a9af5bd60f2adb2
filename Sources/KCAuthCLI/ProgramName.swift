/// kcauth installed under a credential helper's name (a symlink) runs that helper: git runs
/// `git-credential-kcauth get` for `credential.helper = kcauth`, docker runs
/// `docker-credential-kcauth get` for `credsStore`/`credHelpers` = `kcauth`.
public enum ProgramName {
    static let helpers = ["git-credential-kcauth": "git-credential", "docker-credential-kcauth": "docker-credential"]

    /// The arguments to parse, given the full argv (program name first).
    public static func arguments(_ argv: [String]) -> [String] {
        let rest = Array(argv.dropFirst())
        guard let program = argv.first, let command = helpers[String(program.split(separator: "/").last ?? "")] else { return rest }
        return [command] + rest
    }
}
