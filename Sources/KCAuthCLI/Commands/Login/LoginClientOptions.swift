import KCAuthContract
import KCAuthCore

/// `login`'s options for a confidential client: the client-credentials grant
/// (RFC 6749 §4.4), and where the client's secret, key or platform assertion comes from. Never the
/// secret itself: a command line is visible to every user of the machine (`ps`, /proc).
enum LoginClientOptions {
    static let clientCredentials = OptionSpec(SettingsCatalogue.grant)
    static let clientSecretFile = OptionSpec(SettingsCatalogue.clientSecretFile)
    /// Accepted by the parser only to be refused with the reason (instead of "unknown option").
    static let clientSecret = OptionSpec("client-secret", value: "SECRET",
                                         help: "Refused: a secret on the command line is visible to other users; use \(SettingsCatalogue.clientSecretEnv.environment!) or \(SettingsCatalogue.clientSecretFile.flag!)")
    static let clientKey = OptionSpec(SettingsCatalogue.clientKey)
    static let clientKeyID = OptionSpec(SettingsCatalogue.clientKeyID)
    /// The choices are the algorithms kcauth signs with (the row's check takes any text: the
    /// profile's value is checked where the key is used).
    static let clientKeyAlgorithm = OptionSpec(SettingsCatalogue.clientKeyAlgorithm, choices: ClientKey.algorithmNames)
    static let clientAssertionFile = OptionSpec(SettingsCatalogue.clientAssertionFile)
    static let clientAssertionFrom = OptionSpec(SettingsCatalogue.clientAssertionFrom)
    static let clientAssertionAudience = OptionSpec(SettingsCatalogue.clientAssertionAudience)
    static let clientAssertionType = OptionSpec(SettingsCatalogue.clientAssertionType)

    static let options = [clientCredentials, clientSecretFile, clientSecret, clientKey, clientKeyID, clientKeyAlgorithm, clientAssertionFrom,
                          clientAssertionFile, clientAssertionAudience, clientAssertionType]

    /// What the command line says; a secret given as an argument is refused without echoing it.
    /// The files' paths are made absolute against `workingDirectory`.
    static func apply(_ c: ParsedCommand, to flags: inout LoginSettingsFlags, workingDirectory: String?) throws {
        if c.value(clientSecret) != nil {
            throw KCAuthError(.usage, "--client-secret is refused: a secret on the command line is visible to every user of this machine",
                              hint: "export KCAUTH_CLIENT_SECRET, or pass --client-secret-file FILE")
        }
        for option in [clientSecretFile, clientKey, clientKeyID, clientKeyAlgorithm, clientAssertionFile, clientAssertionFrom,
                       clientAssertionAudience, clientAssertionType] { try SettingsOptions.text(c, option) }
        if c.value(clientKey) == nil, c.value(clientKeyID) != nil || c.value(clientKeyAlgorithm) != nil {
            throw KCAuthError(.usage, "--client-key-id and --client-key-alg go with --client-key FILE")
        }
        try applyAssertion(c, to: &flags, workingDirectory: workingDirectory)
        let files = [clientSecretFile, clientKey, clientAssertionFile, clientAssertionFrom]
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

    /// `--client-assertion-from SOURCE` (a `file:` path made absolute), and the audience and type
    /// that go with it or with `--client-assertion-file`, or with $KCAUTH_CLIENT_ASSERTION.
    private static func applyAssertion(_ c: ParsedCommand, to flags: inout LoginSettingsFlags, workingDirectory: String?) throws {
        if let raw = c.value(clientAssertionFrom) {
            switch AssertionSource.parse(raw, absolutePath: false) {
            case .success(.file(let path)):
                flags.clientAssertionFrom = .file(try SettingsOptions.absolute(path, clientAssertionFrom, workingDirectory: workingDirectory))
            case .success(let source):
                flags.clientAssertionFrom = source
            case .failure(let refusal):
                throw KCAuthError(.usage, "--client-assertion-from '\(Sanitize.oneLine(raw, limit: 200))': \(words(refusal))",
                                  hint: "use " + ChoiceWords.or(AssertionSource.forms))
            }
        }
        flags.clientAssertionAudience = c.value(clientAssertionAudience)
        flags.clientAssertionType = c.value(clientAssertionType).flatMap(ClientAssertionType.init(rawValue:))
    }

    private static func words(_ refusal: AssertionSource.Refusal) -> String {
        switch refusal {
        case .unknownForm: return "not a source kcauth knows"
        case .badVariableName: return "env: needs a variable's name (letters, digits and _)"
        case .badPath: return "file: needs a path"
        case .badCommand(.noProgram): return "command: needs a program"
        case .badCommand(.unterminatedSingleQuote): return "a ' is not closed"
        case .badCommand(.unterminatedDoubleQuote): return "a \" is not closed"
        case .badCommand(.loneBackslash): return "it ends in a lone \\"
        }
    }
}
