public enum ProfileName {
    public static let defaultName = "default"

    public static func isValid(_ name: String) -> Bool {
        // The name becomes part of file names (lock, cache, file store): start with a letter or
        // digit, so "..", "-x" and hidden files cannot happen.
        !name.isEmpty && name.count <= 64 && (name.first!.isLetter || name.first!.isNumber) && name.first!.isASCII
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }
}
