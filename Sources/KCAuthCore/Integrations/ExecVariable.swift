import KCAuthContract
/// One `--env` of `kcauth exec`: `NAME` (the access token) or `NAME=id` (the ID token), so a
/// program that wants both gets both: `--env API_TOKEN --env OIDC_TOKEN=id`.
public struct ExecVariable: Sendable, Equatable {
    public enum Value: String, Sendable, CaseIterable {
        case access, id
    }

    public var name: String
    public var value: Value

    public static let defaultName = ExecVariableRule.defaultName

    /// Variables the dynamic loader, the C library or a shell act on before COMMAND's own code
    /// runs: a token there would replace the command search path or name a library to load.
    static func changesHowTheChildRuns(_ name: String) -> Bool { ExecVariableRule.changesHowTheChildRuns(name) }

    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }

    public init(parsing spec: String) throws {
        let parts = spec.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        // POSIX portable names: what every shell and `env` can pass on.
        guard ExecVariableRule.isPortableName(name) else {
            throw KCAuthError(.usage, "--env takes a variable name (letters, digits, '_'), not '\(Sanitize.oneLine(spec, limit: 80))'")
        }
        guard !Self.changesHowTheChildRuns(name) else {
            throw KCAuthError(.usage, "--env \(name): kcauth does not put a token in a variable that changes how COMMAND runs",
                              hint: "name another variable, such as --env \(Self.defaultName)")
        }
        var value = Value.access
        if parts.count == 2 {
            guard let v = Value(rawValue: String(parts[1])) else {
                throw KCAuthError(.usage, "--env \(name)=\(Sanitize.oneLine(String(parts[1]), limit: 40)): use \(name)=access or \(name)=id")
            }
            value = v
        }
        self.init(name: name, value: value)
    }
}
