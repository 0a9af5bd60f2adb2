/// Adds or replaces one named item of a top-level list (`users:`, `contexts:`) in a kubeconfig,
/// keeping every other line as it was. A line editor, not a YAML parser: it understands the
/// block style kubectl writes (what `kubectl config view` shows with its raw option) and refuses anything else rather
/// than guess, so a file it cannot edit is left untouched.
public struct KubeconfigEditor: Sendable, Equatable {
    public private(set) var lines: [String]

    public init(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        self.lines = lines
    }

    public var text: String { lines.joined(separator: "\n") + "\n" }

    /// `item` is a list item at column 0 (`- name: x` and its indented lines); `name` its name.
    public mutating func upsert(section: String, name: String, item: [String]) throws {
        guard let header = lines.firstIndex(where: { Self.topLevelKey($0) == section }) else {
            lines += ["\(section):"] + item
            return
        }
        let rest = Self.valueAfterKey(lines[header])
        switch rest {
        case "", "[]", "null", "~":
            break
        default:
            throw KCAuthError(.configuration, "the kubeconfig's '\(section):' is not a block list kcauth can edit",
                              remedy: .addEntryByHand)
        }
        lines[header] = "\(section):"
        var end = header + 1
        while end < lines.count, !Self.endsBlock(lines[end]) { end += 1 }
        let block = Array(lines[(header + 1)..<end])
        guard let firstItem = block.first(where: { !Self.isBlankOrComment($0) }) else {
            lines.insert(contentsOf: item, at: header + 1)
            return
        }
        let indent = String(firstItem.prefix { $0 == " " })
        guard firstItem.dropFirst(indent.count).hasPrefix("- ") || firstItem.dropFirst(indent.count) == "-" else {
            throw KCAuthError(.configuration, "the kubeconfig's '\(section):' is not a list kcauth can edit",
                              remedy: .addEntryByHand)
        }
        let shifted = item.map { indent + $0 }
        for range in Self.items(block, indent: indent) where Self.itemName(Array(block[range]), indent: indent) == name {
            lines.replaceSubrange((header + 1 + range.lowerBound)..<(header + 1 + range.upperBound), with: shifted)
            return
        }
        var insertAt = end
        while insertAt > header + 1, Self.isBlankOrComment(lines[insertAt - 1]) { insertAt -= 1 }
        lines.insert(contentsOf: shifted, at: insertAt)
    }

    /// The names of a top-level list's items (`clusters:`), in file order: empty when there is
    /// no such list, nil when it is not a block list this editor reads (then nobody can say).
    public func names(in section: String) -> [String]? {
        guard let header = lines.firstIndex(where: { Self.topLevelKey($0) == section }) else { return [] }
        switch Self.valueAfterKey(lines[header]) {
        case "", "[]", "null", "~": break
        default: return nil
        }
        var end = header + 1
        while end < lines.count, !Self.endsBlock(lines[end]) { end += 1 }
        let block = Array(lines[(header + 1)..<end])
        guard let firstItem = block.first(where: { !Self.isBlankOrComment($0) }) else { return [] }
        let indent = String(firstItem.prefix { $0 == " " })
        return Self.items(block, indent: indent).compactMap { Self.itemName(Array(block[$0]), indent: indent) }
    }

    /// Item boundaries in a list's block: from a line at the list's indentation that starts
    /// with "-" to the next, without the blank lines and comments that end it.
    static func items(_ block: [String], indent: String) -> [Range<Int>] {
        var starts: [Int] = []
        for (i, line) in block.enumerated() where line.hasPrefix(indent + "-") && !line.hasPrefix(indent + "- -") {
            let after = line.dropFirst(indent.count)
            if after.hasPrefix("- ") || after == "-" { starts.append(i) }
        }
        return starts.enumerated().map { n, start in
            var stop = n + 1 < starts.count ? starts[n + 1] : block.count
            while stop > start + 1, isBlankOrComment(block[stop - 1]) { stop -= 1 }
            return start..<stop
        }
    }

    static func topLevelKey(_ line: String) -> String? {
        guard let first = line.first, first != " ", first != "-", first != "#", let colon = line.firstIndex(of: ":") else { return nil }
        return String(line[..<colon])
    }

    static func valueAfterKey(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "" }
        var value = line[line.index(after: colon)...]
        if let hash = value.firstIndex(of: "#"), value[..<hash].last.map({ $0 == " " }) ?? true { value = value[..<hash] }
        return value.trimmingWhitespace()
    }

    static func endsBlock(_ line: String) -> Bool {
        guard let first = line.first else { return false }
        return first != " " && first != "-" && first != "#"
    }

    static func isBlankOrComment(_ line: String) -> Bool {
        let t = line.trimmingWhitespace()
        return t.isEmpty || t.hasPrefix("#")
    }

    /// `- name: x`, or `name: x` at the item's content indentation.
    static func itemName(_ item: [String], indent: String) -> String? {
        for (i, line) in item.enumerated() {
            let body = line.dropFirst(indent.count)
            let content: Substring
            if i == 0 { content = body.dropFirst(2) } else if body.hasPrefix("  "), body.dropFirst(2).first != " " { content = body.dropFirst(2) } else { continue }
            guard content.hasPrefix("name:") else { continue }
            return unquote(valueAfterKey(String(content)))
        }
        return nil
    }

    static func unquote(_ s: String) -> String {
        if s.count >= 2, (s.hasPrefix("\"") && s.hasSuffix("\"")) || (s.hasPrefix("'") && s.hasSuffix("'")) {
            return String(s.dropFirst().dropLast())
        }
        return s
    }
}
