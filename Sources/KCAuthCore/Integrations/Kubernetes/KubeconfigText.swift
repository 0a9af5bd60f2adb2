/// A kubeconfig with kcauth's entries merged in, in the file's own format: JSON stays JSON
/// (`KubeconfigJSONEditor`), YAML is edited line by line (`KubeconfigEditor`), and a missing or
/// empty file becomes a new YAML kubeconfig.
public enum KubeconfigText {
    public static func merged(_ entry: KubeconfigEntry, into old: String?) throws -> String {
        let existing = old ?? ""
        if isJSON(existing) {
            var editor = try KubeconfigJSONEditor(text: existing)
            try editor.upsert(section: "users", name: entry.userName, item: entry.userObject)
            if let name = entry.contextName, let item = entry.contextObject {
                try editor.upsert(section: "contexts", name: name, item: item)
            }
            return editor.text
        }
        let blank = existing.allSatisfy(\.isWhitespace)
        var editor = KubeconfigEditor(text: blank ? "apiVersion: v1\nkind: Config\n" : existing)
        try editor.upsert(section: "users", name: entry.userName, item: entry.userItem)
        if let name = entry.contextName, let item = entry.contextItem {
            try editor.upsert(section: "contexts", name: name, item: item)
        }
        return editor.text
    }

    /// The names of the kubeconfig's clusters, in file order: empty for a missing or blank file,
    /// nil when its `clusters` is not a list kcauth reads.
    public static func clusterNames(in old: String?) throws -> [String]? {
        let existing = old ?? ""
        if isJSON(existing) { return try KubeconfigJSONEditor(text: existing).names(in: "clusters") }
        return KubeconfigEditor(text: existing).names(in: "clusters")
    }

    /// JSON when the first character that is not white space opens an object. YAML has flow
    /// mappings too, but kubectl never writes one at the top, and such a file would be JSON
    /// kcauth can parse or a file it refuses either way.
    static func isJSON(_ text: String) -> Bool {
        text.first { !$0.isWhitespace && $0 != "\u{FEFF}" } == "{"
    }
}
