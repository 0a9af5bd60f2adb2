/// Which variables `kcauth exec --env NAME` may put a token in, the same in both programs:
/// POSIX portable names (what every shell and `env` can pass on), and none that changes how the
/// command runs — the dynamic loader's `LD_*`, `PATH`, the shells' startup and parsing variables,
/// the C library's (a token there would be a broken setting, or a way to run other code).
public enum ExecVariableRule {
    public static let defaultName = "KCAUTH_ACCESS_TOKEN"

    static let refusedNames = ["PATH", "IFS", "ENV", "BASH_ENV", "SHELLOPTS", "BASHOPTS", "GCONV_PATH", "HOSTALIASES",
                               "LOCALDOMAIN", "RES_OPTIONS", "TMPDIR", "NLSPATH"]

    /// Letters, digits and `_`, not starting with a digit, at most 128 bytes.
    public static func isPortableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 128, first == UInt8(ascii: "_") || IssuerRule.isAlpha(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || IssuerRule.isAlpha($0) || IssuerRule.isDigit($0) }
    }

    public static func changesHowTheChildRuns(_ name: String) -> Bool {
        refusedNames.contains(name) || name.hasPrefix("LD_") || name.hasPrefix("MALLOC_") || name.hasPrefix("GLIBC_")
    }
}
