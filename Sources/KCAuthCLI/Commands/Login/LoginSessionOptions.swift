import KCAuthContract
import KCAuthCore

/// `login`'s sender-constraint options, remembered per profile: DPoP-bound sessions (RFC 9449) and
/// pushed authorization requests (RFC 9126).
enum LoginSessionOptions {
    static let dpop = OptionSpec("dpop", help: "Bind the session to a key kcauth keeps with it (DPoP, RFC 9449), remembered for the profile")
    static let dpopMode = OptionSpec(SettingsCatalogue.dpop)
    static let par = OptionSpec(SettingsCatalogue.par)

    static let options = [dpop, dpopMode, par]

    static func apply(_ c: ParsedCommand, to flags: inout LoginSettingsFlags) throws {
        if c.flag(dpop) {
            if let mode = c.value(dpopMode), DPoPMode(rawValue: mode) != .yes {
                throw KCAuthError(.usage, "--dpop and --dpop-mode \(mode) say different things", hint: "give one of them")
            }
            flags.dpop = .yes
        } else {
            flags.dpop = try c.value(dpopMode).map { raw in
                guard let mode = DPoPMode(rawValue: raw) else {
                    throw KCAuthError(.usage, "invalid value '\(Sanitize.oneLine(raw))' for --\(dpopMode.long): use one of \(ChoiceWords.commas(dpopMode.choices!))")
                }
                return mode
            }
        }
        flags.par = try c.value(par).map { raw in
            guard let mode = PARMode(rawValue: raw) else {
                throw KCAuthError(.usage, "invalid value '\(Sanitize.oneLine(raw))' for --\(par.long): use one of \(ChoiceWords.commas(par.choices!))")
            }
            return mode
        }
    }
}
