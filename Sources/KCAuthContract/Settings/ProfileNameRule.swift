/// What a profile may be called: 1–64 ASCII letters, digits, `.`, `_` and `-`, starting with a
/// letter or digit. The name becomes part of file names (lock, cache, file store, session mark),
/// so `..`, `-x` and hidden files cannot happen. One rule for both programs.
public enum ProfileNameRule {
    public static let defaultName = "default"

    public static func isValid(_ name: String) -> Bool {
        var copy = name
        return copy.withUTF8 { isValid($0) }
    }

    /// Any collection of bytes: copied to an array for the one concrete check (a generic check
    /// called across modules runs unspecialized standard-library code, docs/performance.md §4).
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes).withUnsafeBufferPointer { isValid($0) }
    }

    /// The check itself, an index loop over the bytes.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 1, bytes.count <= 64, isAlphanumeric(bytes[0]) else { return false }
        var i = 1
        while i < bytes.count {
            let b = bytes[i]
            guard isAlphanumeric(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") else { return false }
            i += 1
        }
        return true
    }

    @inline(__always)
    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }
}
