/// How a setting's text is checked where it enters, the same in both programs. `place` matters
/// for the few settings whose spelling differs between the file and the environment (the
/// environment's `KCAUTH_STORAGE` may name `memory`; `KCAUTH_FLOW` is case-insensitive).
public enum SettingCheck: Sendable, Equatable {
    /// Any one-line text (the file parser and the control-character rule already hold it to one line).
    case text
    case issuer
    case port
    case storage
    case flow
    case browserCommand
    case hosts
    case username
    case grant
    case clientAuthMethod
    case profileName
    /// `dpop`: `no`, `yes` or `refresh-only` (`KCAUTH_DPOP` case-insensitive).
    case dpop
    /// `par`: `auto`, `always` or `never`.
    case par
    /// `client_assertion_from`: `github-actions`, `env:NAME`, `file:PATH` or `command:PROGRAM ARG...` (``AssertionSource``).
    case clientAssertionSource
    /// `client_assertion_type`: `jwt-bearer` or `spiffe` (``ClientAssertionType``).
    case clientAssertionType
    /// `KCAUTH_TOKEN_CACHE`: `0`, `off`, `no`, `false` turn the cache off; anything else leaves it on.
    case switchOff
    /// `--debug`'s `text` or `json`; `KCAUTH_DEBUG` also takes `1` and the off words (``TraceMode``).
    case debug

    public enum Place: Sendable, Equatable { case file, environment }

    /// The one word of the `grant` setting.
    public static let clientCredentialsGrant = "client_credentials"
    /// `KCAUTH_TOKEN_CACHE` and `sign_in_notification`: the words that turn them off.
    public static let offWords = ["0", "off", "no", "false"]

    /// The words of a setting whose values are a choice type's (``StorageKind``, ``FlowSetting``,
    /// ``DPoPMode``, ``PARMode``, ``ClientSecretMethod``), as `place` takes them; nil for the
    /// others. The option offers the environment's words (`--storage memory`).
    public func choices(at place: Place) -> [String]? {
        switch self {
        case .storage: return (place == .file ? StorageKind.persistent : StorageKind.allCases).map(\.rawValue)
        case .flow: return ChoiceWords.words(FlowSetting.self)
        case .dpop: return ChoiceWords.words(DPoPMode.self)
        case .par: return ChoiceWords.words(PARMode.self)
        case .clientAuthMethod: return ChoiceWords.words(ClientSecretMethod.self)
        case .clientAssertionType: return ChoiceWords.words(ClientAssertionType.self)
        case .debug: return ChoiceWords.words(TraceMode.self)
        default: return nil
        }
    }

    /// Whether the full program accepts `value` for this setting at `place`.
    public func accepts(_ value: String, at place: Place) -> Bool {
        switch self {
        case .text, .switchOff:
            return true
        case .issuer:
            if value.isEmpty { return place == .file }   // an empty key is an unset one
            if case .success = IssuerRule.normalize(value) { return true }
            return false
        case .port:
            // One to five digits (no sign), at most 65535: by hand, not Int(String) (docs/performance.md §4).
            guard let port = ASCIIText.decimal(value, maxDigits: 5) else { return false }
            return port <= 65_535
        case .storage:
            // The choice types' own `init(rawValue:)`: no word list of their own here.
            guard let kind = StorageKind(rawValue: value) else { return false }
            return place == .environment || kind != .memory   // memory is never remembered (StorageKind.persistent)
        case .flow:
            return FlowSetting(rawValue: place == .file ? value : Self.asciiLowercased(value)) != nil
        case .browserCommand:
            if value.isEmpty { return true }
            if case .success = BrowserCommandRule.split(value) { return true }
            return false
        case .hosts:
            if case .success = HostListRule.parse(value) { return true }
            return false
        case .username:
            return !value.isEmpty && value.utf8.count <= 256 && value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        case .grant:
            return value.isEmpty || value == Self.clientCredentialsGrant
        case .clientAuthMethod:
            return value.isEmpty || ClientSecretMethod(rawValue: value) != nil
        case .profileName:
            return value.isEmpty || ProfileNameRule.isValid(value)
        case .dpop:
            return value.isEmpty || DPoPMode(rawValue: place == .file ? value : Self.asciiLowercased(value)) != nil
        case .par:
            return value.isEmpty || PARMode(rawValue: value) != nil
        case .clientAssertionSource:
            if value.isEmpty { return true }
            if case .success = AssertionSource.parse(value, absolutePath: place == .file) { return true }
            return false
        case .clientAssertionType:
            return value.isEmpty || ClientAssertionType(rawValue: value) != nil
        case .debug:
            if place == .environment { return TraceMode.setting(environment: value) != .refused }
            return TraceMode(rawValue: value) != nil
        }
    }

    /// ASCII letters lowered, every other byte kept (enough for keywords that are ASCII).
    public static func asciiLowercased(_ s: String) -> String {
        var bytes = Array(s.utf8)
        var i = 0
        while i < bytes.count { if bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 32 }; i += 1 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
