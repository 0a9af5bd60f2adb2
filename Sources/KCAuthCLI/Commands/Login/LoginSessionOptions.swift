import KCAuthContract
import KCAuthCore

/// `login`'s sender-constraint options, remembered per profile: DPoP-bound sessions (RFC 9449) and
/// pushed authorization requests (RFC 9126).
enum LoginSessionOptions {
    static let dpop = OptionSpec("dpop", help: "Bind the session to a key kcauth keeps with it (DPoP, RFC 9449), remembered for the profile")
    static let dpopMode = OptionSpec("dpop-mode", value: "MODE",
                                     help: "DPoP for the profile: no, yes, or refresh-only (the provider binds only the refresh token)",
                                     choices: SettingCheck.dpopModes, environment: SettingsOptions.variable("dpop"))
    static let par = OptionSpec("par", value: "MODE",
                                help: "Push the authorization request (RFC 9126): auto (when offered), always or never, remembered",
                                choices: SettingCheck.parModes)

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
                    throw KCAuthError(.usage, "invalid value '\(Sanitize.oneLine(raw))' for --dpop-mode: use one of no, yes, refresh-only")
                }
                return mode
            }
        }
        flags.par = try c.value(par).map { raw in
            guard let mode = PARMode(rawValue: raw) else {
                throw KCAuthError(.usage, "invalid value '\(Sanitize.oneLine(raw))' for --par: use one of auto, always, never")
            }
            return mode
        }
    }
}
