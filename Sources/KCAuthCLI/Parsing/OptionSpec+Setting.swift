import KCAuthContract

extension OptionSpec {
    /// A setting's option, from its catalogue row: the flag, value placeholder, help, default,
    /// choices (the setting's choice type) and variable; a path completes as a file name, a
    /// profile name as one of the profiles. `help` and `choices` replace the row's where one
    /// command says it in its own words (`doctor --issuer`) or offers more than the row checks.
    init(_ row: SettingRow, help: String? = nil, choices: [String]? = nil, environment: String?? = nil) {
        guard let flag = row.flag, let rowHelp = row.optionHelp, !rowHelp.isEmpty else { preconditionFailure("\(row.name): no flag or help in the catalogue") }
        self.init(String(flag.dropFirst(2)), value: row.optionValue, help: help ?? rowHelp, default: row.optionDefault,
                  choices: choices ?? row.optionChoices, environment: environment ?? row.environment,
                  completes: row.isPath ? .files : row.check == .profileName ? .profiles : .nothing)
    }
}
