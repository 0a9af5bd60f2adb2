import KCAuth
import KCAuthContract
import KCAuthCore

/// What `unlock`, `lock`, `passphrase` and `login` share about the encrypted store: the
/// passphrase file option, the store itself, and `--for`'s durations.
enum EncryptedStoreOptions {
    static let passphraseFile = OptionSpec(SettingsCatalogue.passphraseFile)

    /// The environment a command's services are built over: `--passphrase-file` becomes
    /// `KCAUTH_PASSPHRASE_FILE` in kcauth's own copy of the environment (a path, not a secret;
    /// the process environment itself is not changed).
    static func environment(_ environment: [String: String], for command: ParsedCommand) -> [String: String] {
        guard let path = command.value(passphraseFile) else { return environment }
        var changed = environment
        changed[SettingsCatalogue.passphraseFile.environment!] = path
        return changed
    }

    /// `90s`, `30m`, `12h`, `2d` or plain seconds; up to 30 days.
    static func duration(_ text: String) throws -> UInt32 {
        try InputText.check(text, from: "--for")
        let units: [Character: UInt64] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var digits = Substring(text)
        var unit: UInt64 = 1
        if let last = text.last, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy(\.isASCII), let number = UInt64(digits),
              number * unit >= 1, number * unit <= UInt64(Unlock.maximumSeconds) else {
            throw KCAuthError(.usage, "--for: '\(Sanitize.oneLine(text))' is not a duration from 1s to 30d",
                              hint: "for example 90m, 12h or 2d")
        }
        return UInt32(number * unit)
    }

    /// "until 2026-11-26T09:46:27Z (in 11h 59m)", as every relative time kcauth prints (`RelativeTime`).
    static func until(_ instant: Instant, now: Instant) -> String {
        "until " + RelativeTime.stamp(instant, now: now)
    }
}
