import KCAuthCore

/// `kcauth token -o exec-credential` run by kubectl: kubectl says in `KUBERNETES_EXEC_INFO`
/// whether a person is there (`spec.interactive`, and a terminal on stdin or stderr: see
/// ``SignInNotice``). If so and there is no session, sign in the
/// way `kcauth login` does — its messages on stderr, stdout stays the ExecCredential — as
/// kubelogin's `get-token` does; otherwise exit 4 with the hint.
enum KubectlLogin {
    static func execInfo(_ services: Services) throws -> KubernetesExecInfo {
        try KubernetesExecInfo(environmentValue: services.environment[KubernetesExecInfo.variable])
    }

    static func whenNeeded(_ command: ParsedCommand, _ services: Services, profile: ResolvedProfile,
                           _ getToken: (ResolvedProfile) throws -> IssuedToken) throws -> IssuedToken {
        let kubectl = command.value(TokenOutput.option) == TokenOutput.execCredential.rawValue
        // A version kubectl cannot take is an error before any keyring or network work.
        let info = kubectl ? try execInfo(services) : KubernetesExecInfo()
        do {
            return try getToken(profile)
        } catch let error as KCAuthError where error.code == .loginRequired {
            // kubectl's word alone is not enough: with neither stdin nor stderr a terminal, no
            // person can follow a sign-in (a CI job that copied an interactive kubeconfig).
            guard kubectl, info.interactive, SignInNotice.personPresent(services) else { throw error }
            try LoginCommand.run(ParsedCommand(name: LoginCommand.spec.name, values: [SettingsOptions.profile.long: profile.name]), services,
                                 kubectl: true)
            // The login saved the profile's settings: resolve them again for the new session.
            return try getToken(services.context.resolve(SettingsFlags(profile: profile.name)))
        }
    }
}
