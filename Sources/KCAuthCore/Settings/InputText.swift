/// The check every user-given string goes through where it enters kcauth (flags, environment):
/// no control characters. They have no meaning in an issuer, a client id, a path or a scope,
/// and written to the configuration file a newline would inject a line.
public enum InputText {
    public static func check(_ value: String, from origin: String) throws {
        guard value.unicodeScalars.contains(where: isControl) else { return }
        throw KCAuthError(.usage, "\(origin) contains a control character (such as a newline)",
                          hint: "give the value on one line, without control characters")
    }

    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
