/// A resolved value and where it came from.
public struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value
    public var source: SettingSource
    /// The option, variable or file key that supplied it; nil for a default.
    public var origin: SettingOrigin?

    public init(_ value: Value, _ source: SettingSource, origin: SettingOrigin? = nil) {
        self.value = value
        self.source = source
        self.origin = origin
    }
}
