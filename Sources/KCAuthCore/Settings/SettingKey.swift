/// A typed view of one catalogue row's text in a profile (``ProfileSettings``): how the file's
/// text reads as a value, and how a value is written. The row says where the setting is given
/// and how its text is checked; the key only converts.
public struct SettingKey<Value: Sendable>: Sendable {
    public let row: SettingRow
    let decode: @Sendable (String) -> Value?
    let encode: @Sendable (Value) -> String?

    /// `decode`: nil for a text the value does not hold (an unset one); `encode`: nil to remove the key.
    public init(_ row: SettingRow, decode: @escaping @Sendable (String) -> Value?, encode: @escaping @Sendable (Value) -> String?) {
        precondition(row.key != nil, "a setting key is a profile key")
        self.row = row
        self.decode = decode
        self.encode = encode
    }
}

extension SettingKey where Value == String {
    /// The text as the file has it (an empty value included).
    public init(_ row: SettingRow) { self.init(row, decode: { $0 }, encode: { $0 }) }
    /// The text when it is not empty: an empty value is an unset one.
    public static func nonEmpty(_ row: SettingRow) -> Self {
        Self(row, decode: { $0.isEmpty ? nil : $0 }, encode: { $0.isEmpty ? nil : $0 })
    }
}

extension SettingKey where Value: RawRepresentable, Value.RawValue == String {
    /// A choice type's word; `unset`: the value that is not written (the default).
    public init(_ row: SettingRow, unset: Value? = nil) {
        self.init(row, decode: { text in Value(rawValue: text).flatMap { $0.rawValue == unset?.rawValue ? nil : $0 } },
                  encode: { $0.rawValue == unset?.rawValue ? nil : $0.rawValue })
    }
}
