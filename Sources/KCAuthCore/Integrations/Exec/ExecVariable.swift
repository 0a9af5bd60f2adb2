import KCAuthContract
/// One variable `exec` puts a token in: the access token or the ID token, so a program that
/// wants both gets both (`API_TOKEN` and `OIDC_TOKEN=id`). The names are checked where they are
/// given (``ExecVariableRule``).
public struct ExecVariable: Sendable, Equatable {
    public enum Value: String, Sendable, CaseIterable {
        case access, id
    }

    public var name: String
    public var value: Value

    public static let defaultName = ExecVariableRule.defaultName

    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}
