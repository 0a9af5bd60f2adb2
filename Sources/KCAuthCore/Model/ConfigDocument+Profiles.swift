/// Whole-profile operations on the configuration file, for `profiles`, `use` and
/// a logout that forgets the profile; like `set`, they keep every other line as the user wrote it.
extension ConfigDocument {
    /// The global key that names the profile used when neither the profile option nor
    /// `$KCAUTH_PROFILE` is given (choosing a profile writes it).
    public static let defaultProfileKey = "default_profile"

    /// The `key = value` lines of a profile's section (`profile` nil: the global part), in file order.
    public func entries(profile: String?) -> [(key: String, value: String)] {
        var inside = profile == nil
        var result: [(key: String, value: String)] = []
        for line in lines {
            switch line {
            case .section(let name): inside = name == profile
            case .entry(let key, let value) where inside: result.append((key, value))
            default: break
            }
        }
        return result
    }

    /// `default_profile`, checked like any profile name; nil when unset or empty.
    public func defaultProfile(path: String) throws -> String? {
        guard let name = value(Self.defaultProfileKey, profile: nil), !name.isEmpty else { return nil }
        guard ProfileName.isValid(name) else {
            let place = line(of: Self.defaultProfileKey, profile: nil).map { "\(path):\($0)" } ?? path
            throw KCAuthError(.configuration, "\(place): default_profile '\(Sanitize.oneLine(name))' is not a valid profile name",
                              remedy: .fixDefaultProfile)
        }
        return name
    }

    /// Removes a profile's section: its header, its lines, and the comment lines directly above
    /// the header (they describe it), unless they open the file. Returns whether it existed.
    @discardableResult
    public mutating func removeProfile(_ profile: String) -> Bool {
        guard let header = lines.firstIndex(of: .section(profile)) else { return false }
        var end = header + 1
        while end < lines.count, !Self.isSection(lines[end]) { end += 1 }
        // Blank lines and comments at the end of the section introduce the next one: keep them.
        if end < lines.count { while end > header + 1, case .other = lines[end - 1] { end -= 1 } }
        var start = header
        while start > 0, case .other(let text) = lines[start - 1], !text.trimmingWhitespace().isEmpty { start -= 1 }
        if start == 0 { start = header }  // comments that open the file are about the file
        lines.removeSubrange(start..<end)
        // Two blank lines meet where the section was: keep one.
        if start > 0, start < lines.count, Self.isBlank(lines[start - 1]), Self.isBlank(lines[start]) { lines.remove(at: start) }
        while case .other(let s)? = lines.first, s.trimmingWhitespace().isEmpty { lines.removeFirst() }
        while case .other(let s)? = lines.last, s.trimmingWhitespace().isEmpty { lines.removeLast() }
        return true
    }

    private static func isSection(_ line: Line) -> Bool { if case .section = line { return true } else { return false } }
    private static func isBlank(_ line: Line) -> Bool { if case .other(let s) = line { return s.trimmingWhitespace().isEmpty } else { return false } }
}
