/// The process environment as kcauth reads it: one place for the rules every variable follows.
/// - Empty means unset (`KCAUTH_PROFILE= kcauth token` is `kcauth token`).
/// - A value with a control character is refused (exit 2): it could only be a mistake or an
///   injection attempt (a newline would become a new line in the configuration file).
public struct EnvironmentValues: Sendable, Equatable {
    public let raw: [String: String]

    public init(_ raw: [String: String]) { self.raw = raw }

    /// The variable's value, nil when unset or empty; a usage error for control characters.
    public func value(_ name: String) throws -> String? {
        guard let v = raw[name], !v.isEmpty else { return nil }
        try InputText.check(v, from: name)
        return v
    }

    /// Like `value`, for places that must not fail (doctor, flow detection): a bad value is unset.
    public func lenient(_ name: String) -> String? { (try? value(name)) ?? nil }
}
