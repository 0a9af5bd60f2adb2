import KCAuthCore

/// `login`'s options for a confidential client: the client-credentials grant
/// (RFC 6749 §4.4), and where the client's secret, key or platform assertion comes from. Never the
/// secret itself: a command line is visible to every user of the machine (`ps`, /proc).
enum LoginClientOptions {
    static let clientCredentials = OptionSpec("client-credentials",
                                              help: "Sign in as the client itself, with no person (client credentials grant; CI, services)")
    static let clientSecretFile = OptionSpec("client-secret-file", value: "FILE",
                                             help: "Read the client secret from this file (or set KCAUTH_CLIENT_SECRET)", completes: .files)
    /// Accepted by the parser only to be refused with the reason (instead of "unknown option").
    static let clientSecret = OptionSpec("client-secret", value: "SECRET",
                                         help: "Refused: a secret on the command line is visible to other users; use KCAUTH_CLIENT_SECRET or --client-secret-file")
    static let clientKey = OptionSpec("client-key", value: "FILE",
                                      help: "Sign a fresh client assertion with this PEM private key for each token request (private_key_jwt)",
                                      completes: .files)
    static let clientKeyID = OptionSpec("client-key-id", value: "KID", help: "The key id (kid) the provider knows the client key by")
    static let clientKeyAlgorithm = OptionSpec("client-key-alg", value: "ALG", help: "Signing algorithm for the client key (default: RS256 for RSA, ES256 for EC)",
                                               choices: ["RS256", "PS256", "ES256", "RS384", "PS384", "ES384", "RS512", "PS512", "ES512"])
    static let clientAssertionFile = OptionSpec("client-assertion-file", value: "FILE",
                                                help: "Send the platform's signed assertion in this file, re-read for each request (or set KCAUTH_CLIENT_ASSERTION)",
                                                completes: .files)

    static let options = [clientCredentials, clientSecretFile, clientSecret, clientKey, clientKeyID, clientKeyAlgorithm, clientAssertionFile]

    /// What the command line says; a secret given as an argument is refused without echoing it.
    /// The files' paths are made absolute against `workingDirectory`.
    static func apply(_ c: ParsedCommand, to flags: inout LoginSettingsFlags, workingDirectory: String?) throws {
        if c.value(clientSecret) != nil {
            throw KCAuthError(.usage, "--client-secret is refused: a secret on the command line is visible to every user of this machine",
                              hint: "export KCAUTH_CLIENT_SECRET, or pass --client-secret-file FILE")
        }
        for option in [clientSecretFile, clientKey, clientKeyID, clientKeyAlgorithm, clientAssertionFile] { try SettingsOptions.text(c, option) }
        if c.value(clientKey) == nil, c.value(clientKeyID) != nil || c.value(clientKeyAlgorithm) != nil {
            throw KCAuthError(.usage, "--client-key-id and --client-key-alg go with --client-key FILE")
        }
        let files = [clientSecretFile, clientKey, clientAssertionFile]
        func path(_ option: OptionSpec) throws -> String? {
            try c.value(option).map { try SettingsOptions.absolute($0, option, workingDirectory: workingDirectory) }
        }
        flags.clientCredentials = c.flag(clientCredentials)
        flags.clientSecretFile = try path(clientSecretFile)
        flags.clientKey = try path(clientKey)
        flags.clientKeyID = c.value(clientKeyID)
        flags.clientKeyAlgorithm = c.value(clientKeyAlgorithm)
        flags.clientAssertionFile = try path(clientAssertionFile)
        let given = files.filter { c.value($0) != nil }
        guard given.count <= 1 else {
            throw KCAuthError(.usage, "give one client credential: \(given.map { "--" + $0.long }.joined(separator: ", ")) were given together")
        }
    }
}
