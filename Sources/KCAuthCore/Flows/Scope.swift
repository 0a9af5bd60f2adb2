import KCAuthCrypto

/// Scope handling: `openid` is always requested, duplicates dropped, order kept.
public enum Scope {
    public static let defaultScope = "openid profile email"

    public static func normalize(_ raw: String) -> String {
        var seen = Set<String>()
        var items = ["openid"]
        seen.insert("openid")
        for word in raw.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) where seen.insert(word).inserted {
            items.append(word)
        }
        return items.joined(separator: " ")
    }
}
