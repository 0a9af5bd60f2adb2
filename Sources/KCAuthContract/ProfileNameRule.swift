/// What a profile may be called: 1–64 ASCII letters, digits, `.`, `_` and `-`, starting with a
/// letter or digit. The name becomes part of file names (lock, cache, file store, session mark),
/// so `..`, `-x` and hidden files cannot happen. One rule for both programs.
public enum ProfileNameRule {
    public static let defaultName = "default"

    public static func isValid(_ name: String) -> Bool { isValid(name.utf8) }

    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, bytes.count <= 64, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    @inline(__always)
    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }
}
