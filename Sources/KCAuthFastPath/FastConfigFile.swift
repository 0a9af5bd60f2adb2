/// The configuration file as ``FastTokenPath`` reads it: the same INI shape as the full program's
/// ConfigDocument, but nil for anything that is not plainly valid there — a line the full parser
/// would reject, a duplicate section or key, non-ASCII text, a global key other than
/// `default_profile`, or a profile key it does not know. The full program then reads the file
/// itself and reports what is wrong, so an error never depends on which path ran.
struct FastConfigFile {
    struct Profile: Equatable {
        var issuer: String
        var clientID: String
    }

    /// Keys of a profile section (ProfileSettings); their values are checked in `keyringProfile`.
    static let profileKeys: Set<String> = ["issuer", "client_id", "scope", "port", "ca_file", "storage", "flow"]

    private(set) var defaultProfile: String?
    private var sections: [String: [String: String]] = [:]

    init?(_ bytes: [UInt8]) {
        var current: String?   // nil: the global part
        var global: [String: String] = [:]
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            // Printable ASCII and tabs only: the full parser trims Unicode whitespace, which this
            // one does not try to match.
            guard raw.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) else { return nil }
            let line = Self.trimmed(raw)
            if line.isEmpty || line.first == UInt8(ascii: "#") || line.first == UInt8(ascii: ";") { continue }
            if line.first == UInt8(ascii: "[") {
                guard line.last == UInt8(ascii: "]"), line.count >= 2 else { return nil }
                let name = String(decoding: Self.trimmed(line.dropFirst().dropLast()), as: UTF8.self)
                guard Self.isProfileName(name), sections[name] == nil else { return nil }
                sections[name] = [:]
                current = name
            } else if let eq = line.firstIndex(of: UInt8(ascii: "=")) {
                let key = String(decoding: Self.trimmed(line[..<eq]), as: UTF8.self)
                let value = String(decoding: Self.trimmed(line[(eq + 1)...]), as: UTF8.self)
                guard !key.isEmpty, key.utf8.allSatisfy({ Self.isAlphanumeric($0) || $0 == UInt8(ascii: "_") }) else { return nil }
                if let name = current {
                    guard Self.profileKeys.contains(key), sections[name]![key] == nil else { return nil }
                    sections[name]![key] = value
                } else {
                    guard key == "default_profile", global[key] == nil else { return nil }
                    global[key] = value
                }
            } else {
                return nil
            }
        }
        if let name = global["default_profile"], !name.isEmpty {
            guard Self.isProfileName(name) else { return nil }   // the full program reports it
            defaultProfile = name
        }
    }

    /// The profile's issuer and client, when its section exists, keeps the session in the keyring
    /// (no `storage`, or `storage = keyring`) and every other value is one the full program
    /// accepts without a word.
    func keyringProfile(_ name: String) -> Profile? {
        guard let section = sections[name], let issuer = section["issuer"], let clientID = section["client_id"],
              !issuer.isEmpty, !clientID.isEmpty else { return nil }
        if let storage = section["storage"], storage != "keyring" { return nil }
        if let flow = section["flow"], !["auto", "browser", "device"].contains(flow) { return nil }
        if let port = section["port"] {
            guard (1...5).contains(port.utf8.count), port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let n = Int(port), n <= 65_535 else { return nil }
        }
        return Profile(issuer: issuer, clientID: clientID)
    }

    /// ProfileName's rule, in ASCII: 1–64 of letters, digits, '.', '_', '-', starting with a
    /// letter or digit (the name becomes part of file names).
    static func isProfileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    private static func trimmed<C: BidirectionalCollection>(_ bytes: C) -> C.SubSequence where C.Element == UInt8 {
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }), let end = bytes.lastIndex(where: { !isBlank($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[start...end]
    }
}
