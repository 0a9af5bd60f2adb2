import KCAuth
import KCAuthContract
import KCAuthCore

/// `kcauth token`: a token that is valid for at least `--min-valid` seconds, on stdout and
/// nothing else; refreshed first when needed.
enum TokenCommand: Command {
    static let minValid = OptionSpec("min-valid", value: "SECONDS", help: "Refresh if the token expires sooner than this",
                                     default: String(Int(TokenDefaults.minValid)))

    static let spec = CommandSpec(
        "token", summary: "Print a valid access token for scripts",
        description: """
        Prints the access token of the profile on stdout and nothing else. If it expires within \
        --min-valid seconds, kcauth first refreshes it with the stored refresh token (one refresh \
        at a time across processes). A valid token needs no network, and usually not even the \
        keyring. If the session has ended at the provider, kcauth removes the stored tokens, \
        keeps the profile's settings, and exits with status 4. A DPoP-bound access token (of a DPoP \
        profile) is printed by -o header, -o curl and -o headers-json with a proof for one request: \
        --dpop-url URL and --dpop-method METHOD say which.
        """,
        options: [CommandTable.profile, minValid, TokenOutput.option, TokenOutput.idToken, DPoPTokenOutput.url, DPoPTokenOutput.method],
        examples: [
            "curl -H \"$(kcauth token -o header)\" https://api.example.com/",
            "eval \"$(kcauth token -o env)\"",
            "kcauth token --id-token -o exec-credential   # kubectl exec plugin",
            "kcauth token -o curl | curl -K - https://api.example.com/",
            "kcauth token -o curl --dpop-url https://api.example.com/x   # DPoP",
            "kcauth token -o headers-json   # for a headers helper command",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        if let forwarded = try ForwardedSession.token(command, services, minValid: try seconds(command, minValid, default: TokenDefaults.minValid),
                                                      idToken: command.flag(TokenOutput.idToken)) {
            return try print(forwarded.token, command, services, profile: forwarded.profile, prover: {
                try services.context.dpopProver(services.context.resolve(SettingsFlags(profile: forwarded.profile)))
            })
        }
        let profile = try services.resolve(command)
        let request = TokenProvider.Request(minValid: try seconds(command, minValid, default: TokenDefaults.minValid),
                                            idToken: command.flag(TokenOutput.idToken))
        let format = command.value(TokenOutput.option).flatMap(TokenOutput.init(rawValue:)) ?? .raw
        let output = KubectlLoginOutput(services, profile: profile.name)
        let answer: TokenOrSignIn.Output
        do {
            defer { output.end() }
            answer = try services.context.tokenOrSignIn(profile, kubectl: format == .execCredential)
                .run(request, caller: services.signInCaller(command: spec.name), canAsk: services.console.stderrIsTTY,
                     offerEncryptedStore: { try EncryptedStoreOffer.accepted($0, services) }, notify: output.show)
        }
        output.present(answer.signedIn)
        try print(answer.token, command, services, profile: profile.name, prover: answer.prover)
    }

    /// Shared with `refresh`. `prover`: the library's maker of DPoP proofs for the token's
    /// session, called only for a DPoP-bound token (the key is read from the store then).
    static func print(_ token: IssuedToken, _ command: ParsedCommand, _ services: Services, profile: String,
                      prover: () throws -> DPoPProver) throws {
        let idToken = command.flag(TokenOutput.idToken)
        if idToken, token.idToken == nil {
            throw KCAuthError(.loginRequired, "the session of profile '\(profile)' has no ID token", remedy: .signIn(profile: profile))
        }
        switch token.notice {
        case .shorterThanMinimumValidity(let requested)?:
            services.console.err("note: the provider issues tokens valid for less than --min-valid \(Int(requested)) s; every call will refresh\n")
        case nil:
            break
        }
        let format = command.value(TokenOutput.option).flatMap(TokenOutput.init(rawValue:)) ?? .raw
        if let bound = try DPoPTokenOutput.render(token, format: format, idToken: idToken, command, key: prover) {
            services.console.out(bound)
            return
        }
        try format.check(token, idToken: idToken)
        services.console.out(format.render(token, idToken: idToken, profile: profile, now: services.context.clock.instant,
                                               exec: try KubernetesExecInfo(environment: services.environment).apiVersion))
    }

    /// A `--min-valid`-style number of seconds: plain decimal, 0 to 86400.
    static func seconds(_ command: ParsedCommand, _ option: OptionSpec, default value: Double) throws -> Double {
        guard let raw = command.value(option) else { return value }
        try InputText.check(raw, from: "--" + option.long)
        return try OptionValues.seconds(raw, option: "--" + option.long, range: TokenDefaults.minValidRange)
    }
}
