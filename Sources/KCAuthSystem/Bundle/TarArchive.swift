import KCAuthCore

/// A ustar archive (POSIX.1-1988, as `pax(1)` describes the format) of regular files, built in
/// memory: a 512-byte header per file, its bytes padded to 512, two zero blocks at the end. The
/// bundle's names are kcauth's own short ASCII names, so no long-name extension is needed.
struct TarArchive {
    static let block = 512

    private(set) var bytes: [UInt8] = []
    let modified: Int

    /// `modified`: the members' mtime (seconds since the epoch).
    init(modified: Int) { self.modified = max(0, modified) }

    /// Adds a regular file, mode 0600, owned by uid and gid 0 (the reader's own on extraction).
    mutating func append(_ member: BundleMember) {
        var header = [UInt8](repeating: 0, count: Self.block)
        func put(_ text: String, at offset: Int, width: Int) {
            for (i, byte) in text.utf8.prefix(width).enumerated() { header[offset + i] = byte }
        }
        func octal(_ value: Int, at offset: Int, width: Int) {
            // width - 1 digits, zero-padded, then NUL.
            let digits = String(value, radix: 8)
            put(String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits, at: offset, width: width - 1)
        }
        precondition(member.name.utf8.count < 100 && member.name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
                     "a bundle member's name is kcauth's own short ASCII name")
        put(member.name, at: 0, width: 100)
        octal(0o600, at: 100, width: 8)
        octal(0, at: 108, width: 8)
        octal(0, at: 116, width: 8)
        octal(member.bytes.count, at: 124, width: 12)
        octal(modified, at: 136, width: 12)
        header[156] = UInt8(ascii: "0")  // a regular file
        put("ustar", at: 257, width: 6)
        put("00", at: 263, width: 2)
        // The checksum: the sum of the header's bytes with its own field taken as eight spaces,
        // written as six octal digits, NUL, space.
        for i in 148..<156 { header[i] = UInt8(ascii: " ") }
        let sum = header.reduce(0) { $0 + Int($1) }
        octal(sum, at: 148, width: 7)
        header[154] = 0
        header[155] = UInt8(ascii: " ")
        bytes += header
        bytes += member.bytes
        bytes += [UInt8](repeating: 0, count: (Self.block - member.bytes.count % Self.block) % Self.block)
    }

    /// The archive with its end: two zero blocks.
    var finished: [UInt8] { bytes + [UInt8](repeating: 0, count: 2 * Self.block) }
}
