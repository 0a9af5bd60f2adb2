import KCAuthCore

/// `exec`: the user's command with fresh tokens in its environment. kcauth becomes the command
/// (like `env` and `exec`): signals reach it directly, and its exit status is kcauth's.
public struct Exec: Sendable {
    let context: KCAuthContext
    let tokens: ExecTokens

    public init(context: KCAuthContext, tokens: ExecTokens) {
        self.context = context
        self.tokens = tokens
    }

    /// The command's environment: kcauth's, with each variable holding its token (each kind of
    /// token fetched once).
    public func environment(_ variables: [ExecVariable], minValid: Double) throws -> [String: String] {
        var environment = context.environment
        for kind in ExecVariable.Value.allCases where variables.contains(where: { $0.value == kind }) {
            let (name, token) = try tokens.token(minValid: minValid, idToken: kind == .id)
            guard let value = kind == .id ? token.idToken : token.accessToken else {
                throw KCAuthError(.loginRequired, "the session of profile '\(name)' has no ID token", remedy: .signIn(profile: name))
            }
            // The command's environment is where `exec` is asked to put the token: its wire.
            for variable in variables where variable.value == kind { environment[variable.name] = value.reveal() }
        }
        return environment
    }

    /// Becomes `command`; returns only by throwing: a ``CommandStartFailure`` (127: not found,
    /// 126: cannot be run) or why there is no token (before the command starts).
    public func run(_ command: [String], variables: [ExecVariable], minValid: Double) throws -> Never {
        precondition(!command.isEmpty)
        try context.adapters.launcher.replace(with: command, environment: try environment(variables, minValid: minValid))
    }
}

extension KCAuthContext {
    public func exec(_ tokens: ExecTokens) -> Exec { Exec(context: self, tokens: tokens) }

    /// `exec`'s tokens: the laptop's when `ssh` announced a forward (`named`: the profile asked
    /// for, nil: the forward's first), else the profile `resolve` gives, from this host.
    public func execTokens(named: String?, resolve: () throws -> ResolvedProfile) throws -> ExecTokens {
        let remote = forwardedToken()
        guard remote.announced else { return ExecTokens(context: self, profile: try resolve(), forwarded: nil) }
        return ExecTokens(context: self, profile: nil, forwarded: { try remote.token(profile: named, minValid: $0, idToken: $1) })
    }

    public func keepFresh(_ tokens: ExecTokens) -> KeepFresh { KeepFresh(context: self, tokens: tokens) }
}
