import KCAuthCrypto

/// The line format both files of the encrypted store share: a first line naming the kind and
/// version, `name value` lines, and a last line `<field> <base64url>` with the AES-256-GCM
/// output. Everything before the last line is the header, and is the AEAD's associated data,
/// so a changed header fails the tag check just as a changed ciphertext does.
struct SealedText {
    static let version = "1"

    var header: [(String, String)]
    var sealedField: String
    var sealed: [UInt8]

    /// The header's bytes exactly as written: the associated data.
    static func aad(magic: String, header: [(String, String)]) -> [UInt8] {
        Array(([magic + " " + version] + header.map { $0.0 + " " + $0.1 }).map { $0 + "\n" }.joined().utf8)
    }

    func render(magic: String) -> String {
        String(decoding: Self.aad(magic: magic, header: header), as: UTF8.self) + sealedField + " " + Base64URL.encode(sealed) + "\n"
    }

    /// Parses `text` as a file of kind `magic` with exactly the header fields `names`, in order.
    static func parse(_ text: String, magic: String, names: [String], sealedField: String) throws(SealedFileProblem) -> SealedText {
        guard text.hasSuffix("\n") else { throw .malformed("it does not end with a line break") }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, first.hasPrefix(magic + " ") else { throw .malformed("the first line is not '\(magic) …'") }
        let version = String(first.dropFirst(magic.count + 1))
        guard version == Self.version else { throw .unknownVersion(Sanitize.oneLine(version, limit: 20)) }
        guard lines.count == names.count + 2 else { throw .malformed("\(lines.count) lines instead of \(names.count + 2)") }
        var header: [(String, String)] = []
        for (line, name) in zip(lines[1...], names) {
            guard line.hasPrefix(name + " ") else { throw .malformed("no '\(name)' line") }
            header.append((name, String(line.dropFirst(name.count + 1))))
        }
        let last = lines[lines.count - 1]
        guard last.hasPrefix(sealedField + " "), let bytes = Base64URL.decode(String(last.dropFirst(sealedField.count + 1))),
              bytes.count >= AESGCM.nonceLength + AESGCM.tagLength else {
            throw .malformed("the '\(sealedField)' line is not valid base64url")
        }
        return SealedText(header: header, sealedField: sealedField, sealed: bytes)
    }

    func value(_ name: String) -> String { header.first { $0.0 == name }?.1 ?? "" }
}
