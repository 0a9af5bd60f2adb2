import KCAuthCore

/// The values of options a person types that are more than text: checked here, with the
/// option's name in the message, so that the core gets typed values.
enum OptionValues {
    /// A loopback port: plain decimal digits, 0 to 65535.
    static func port(_ raw: String) throws -> UInt16 {
        guard raw.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let port = UInt16(raw) else {
            throw KCAuthError(.usage, "--port takes a number from 0 to 65535, not '\(Sanitize.oneLine(raw))'")
        }
        return port
    }

    /// A number of seconds typed by a person: plain decimal digits (no hex, no exponent, no
    /// `inf`), within `range`.
    static func seconds(_ raw: String, option: String, range: ClosedRange<Double>) throws -> Double {
        let plain = !raw.isEmpty && raw.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || $0 == 46 } && raw.utf8.filter({ $0 == 46 }).count <= 1
        guard plain, let n = Double(raw), n.isFinite, range.contains(n) else {
            throw KCAuthError(.usage, "\(option) takes a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not '\(Sanitize.oneLine(raw))'")
        }
        return n
    }

    /// `--prompt`: space-separated values from ``AuthorizationParameters/promptValues``; `none`
    /// only alone.
    static func prompt(_ raw: String) throws -> String {
        let values = raw.split(separator: " ").map(String.init)
        guard !values.isEmpty, values.allSatisfy(AuthorizationParameters.promptValues.contains), Set(values).count == values.count,
              !(values.contains("none") && values.count > 1) else {
            throw KCAuthError(.usage, "--prompt takes login, consent, select_account or none (none only alone), not '\(Sanitize.oneLine(raw, limit: 60))'")
        }
        return values.joined(separator: " ")
    }

    /// `--max-age`: whole seconds, 0 (sign in again now) to ten years.
    static func maxAge(_ raw: String) throws -> Int {
        guard !raw.isEmpty, raw.count <= 9, raw.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(raw), n <= 315_360_000 else {
            throw KCAuthError(.usage, "--max-age takes a whole number of seconds from 0 to 315360000, not '\(Sanitize.oneLine(raw, limit: 20))'")
        }
        return n
    }

    /// `--param NAME=VALUE`: a non-empty name of URL-safe characters that kcauth does not set
    /// itself (its own options say what the reserved ones mean).
    static func parameter(_ raw: String) throws -> AuthorizationParameters.Parameter {
        guard let eq = raw.firstIndex(of: "=") else {
            throw KCAuthError(.usage, "--param takes NAME=VALUE, not '\(Sanitize.oneLine(raw, limit: 60))'")
        }
        let name = String(raw[..<eq])
        let value = String(raw[raw.index(after: eq)...])
        guard !name.isEmpty, name.count <= 100, name.utf8.allSatisfy({ c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F || c == 0x2E
        }) else {
            throw KCAuthError(.usage, "--param: '\(Sanitize.oneLine(name, limit: 60))' is not a parameter name (letters, digits, '-', '_', '.')")
        }
        guard !AuthorizationParameters.reserved.contains(name) else {
            throw KCAuthError(.usage, "--param cannot set '\(name)': kcauth sets it itself",
                              hint: "use its own option where there is one (--prompt, --max-age, --idp-hint, --login-hint, --acr-values, --ui-locales)")
        }
        return AuthorizationParameters.Parameter(name: name, value: value)
    }
}
