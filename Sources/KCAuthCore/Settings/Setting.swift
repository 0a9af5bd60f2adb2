/// A resolved value and where it came from.
public struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value
    public var source: SettingSource
    /// The flag, variable or file key that supplied it (`--ca-file`, `KCAUTH_CA_FILE`,
    /// `ca_file`); nil for a default.
    public var origin: String?

    public init(_ value: Value, _ source: SettingSource, origin: String? = nil) {
        self.value = value
        self.source = source
        self.origin = origin
    }
}
