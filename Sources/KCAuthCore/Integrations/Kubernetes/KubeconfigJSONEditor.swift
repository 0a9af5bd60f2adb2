/// Adds or replaces one named item of a top-level list (`users`, `contexts`) in a kubeconfig
/// written as JSON, which kubectl reads as well as YAML. Appending YAML to such a file would
/// make it neither, so a JSON file is edited as JSON and stays JSON. The decoder does not keep
/// the order of an object's members: the file comes back with its keys sorted, pretty-printed,
/// with every value kept.
public struct KubeconfigJSONEditor: Sendable, Equatable {
    public private(set) var root: [JSONValue.Member]

    public init(text: String) throws {
        guard let value = JSONValue.parse(Array(text.utf8)), let members = value.members else {
            throw KCAuthError(.configuration, "the kubeconfig starts like JSON but is not a JSON object",
                              hint: "check it with `kubectl config view`; kcauth does not change a file it cannot read")
        }
        root = members
    }

    public var text: String { JSONValue.object(root).rendered() }

    /// The `name` of each item of a top-level list (`clusters`): empty when there is none, nil
    /// when it is not a list.
    public func names(in section: String) -> [String]? {
        guard let value = root.first(where: { $0.key == section })?.value else { return [] }
        switch value {
        case .null: return []
        case .array(let items): return items.compactMap { $0["name"]?.stringValue }
        default: return nil
        }
    }

    /// `item` is an object with a `name` member.
    public mutating func upsert(section: String, name: String, item: JSONValue) throws {
        guard let index = root.firstIndex(where: { $0.key == section }) else {
            root.append(JSONValue.Member(section, .array([item])))
            return
        }
        var items: [JSONValue]
        switch root[index].value {
        case .null: items = []
        case .array(let list): items = list
        default:
            throw KCAuthError(.configuration, "the kubeconfig's \"\(section)\" is not a list",
                              remedy: .addEntryByHand)
        }
        if let same = items.firstIndex(where: { $0["name"]?.stringValue == name }) {
            items[same] = item
        } else {
            items.append(item)
        }
        root[index].value = .array(items)
    }
}
