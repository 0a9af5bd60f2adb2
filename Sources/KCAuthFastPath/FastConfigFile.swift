import KCAuthContract

/// The configuration file as ``FastTokenPath`` reads it: the same INI shape as the full program's
/// ConfigDocument, but nil for anything that is not plainly valid there — a line the full parser
/// would reject, a duplicate section, non-ASCII text, a global key other than `default_profile` and
/// `sign_in_notification` (``SettingsCatalogue/globalKeys``, each at most once), a key of no
/// catalogue row in any section (the full program warns of it), or, in the selected profile, a
/// repeated key. The full program then reads the file
/// itself and reports what is wrong, so an error never depends on which path ran. The keys and
/// the checks of their values come from the contract's ``SettingsCatalogue`` (``CacheGate``);
/// the differential fuzz target `config-differential` holds this scanner to ConfigDocument.
///
/// Written without sets or dictionaries on purpose: the first use of a generic collection type
/// costs the Swift runtime a metadata lookup by mangled name (≈80,000 instructions each in a
/// binary of this size, docs/performance.md), more than parsing the file.
struct FastConfigFile {
    /// The number of keys of a profile section, the length of `values` (the catalogue's rows).
    static var keyCount: Int { SettingsCatalogue.profileRows.count }

    /// The `values` index of a key.
    static func keyIndex(_ key: String) -> Int? {
        let rows = SettingsCatalogue.profileRows
        var i = 0
        while i < rows.count { if rows[i].key == key { return i }; i += 1 }
        return nil
    }

    /// The `values` index of the key spelt by `bytes[lo..<hi]`: an index loop over the catalogue's
    /// rows, comparing bytes (no String made, no `firstIndex`; docs/performance.md §4).
    static func keyIndex(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Int? {
        let rows = SettingsCatalogue.profileRows
        var i = 0
        while i < rows.count {
            if let key = rows[i].key, ASCIIText.equals(bytes, lo, hi, key) { return i }
            i += 1
        }
        return nil
    }

    /// The profile asked for, else `default_profile`, else `default` (not yet checked as a name).
    private(set) var profile: String
    /// The selected section's values by `profileKeys` index; nil when the file has no such section.
    private(set) var values: [String?]?
    /// With `allSections`: every section's name and values, in file order (the credential
    /// helpers choose a profile by the hosts each lists, and the full program reads them all).
    private(set) var sections: [(name: String, values: [String?])] = []

    /// `wanted`: `--profile`, else `$KCAUTH_PROFILE` (nil: decided by the file). Only the wanted
    /// profile's section is collected; the others are checked for shape and known keys alone, so
    /// a file with many profiles costs little more than one with a single profile.
    init?(_ bytes: [UInt8], wanted: String?, allSections: Bool = false) {
        // Unsafe buffer: no bounds check per byte. With 100 profiles the checked loops were
        // ≈35 instructions a byte, more than the whole rest of a warm token (docs/performance.md §6).
        guard let parsed = bytes.withUnsafeBufferPointer({ Self.parse($0, wanted: wanted, allSections: allSections) }) else { return nil }
        (profile, values, sections) = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, wanted: String?, allSections: Bool)
        -> (profile: String, values: [String?]?, sections: [(name: String, values: [String?])])? {
        var values: [String?]?
        var sections: [(name: String, values: [String?])] = []
        var inSection = false
        var inGlobal = true, inWanted = false
        var defaultProfile: String?
        var otherGlobalSeen = false   // sign_in_notification: the one other global key
        // Section names as byte ranges of the file, with a hash of each for a quick duplicate test:
        // no String is made for a section that is not the wanted one.
        var nameStarts: [Int] = [], nameEnds: [Int] = [], hashes: [Int] = []   // [Int] only: one array type
        var chosen = wanted
        var start = 0
        while start <= bytes.count {
            // One pass to the end of the line. Printable ASCII and tabs only: the full parser trims
            // Unicode whitespace, which this one does not try to match.
            var end = start
            end = Self.skipPrintable(bytes, from: end)
            while end < bytes.count {
                let c = bytes[end]
                if c == 0x0A { break }
                guard (c >= 0x20 && c < 0x7F) || c == 0x09 else { return nil }
                end += 1
            }
            defer { start = end + 1 }
            var lo = start, hi = end
            Self.trim(bytes, &lo, &hi)
            guard lo < hi, bytes[lo] != UInt8(ascii: "#"), bytes[lo] != UInt8(ascii: ";") else { continue }
            if bytes[lo] == UInt8(ascii: "[") {
                guard hi - lo >= 2, bytes[hi - 1] == UInt8(ascii: "]") else { return nil }
                var nlo = lo + 1, nhi = hi - 1
                Self.trim(bytes, &nlo, &nhi)
                let name = UnsafeBufferPointer(rebasing: bytes[nlo..<nhi])
                guard Self.isProfileName(name) else { return nil }
                let hash = Int(bitPattern: UInt(Self.fnv1a(bytes[nlo..<nhi])))
                for i in 0..<hashes.count where hashes[i] == hash
                    && UnsafeBufferPointer(rebasing: bytes[nameStarts[i]..<nameEnds[i]]).elementsEqual(name) { return nil }
                nameStarts.append(nlo)
                nameEnds.append(nhi)
                hashes.append(hash)
                if inGlobal {
                    // Keys before the first section are global: default_profile is known now.
                    inGlobal = false
                    if chosen == nil { chosen = Self.nonEmpty(defaultProfile) ?? "default" }
                }
                inWanted = ASCIIText.equals(bytes, nlo, nhi, chosen!)
                if inWanted { values = [String?](repeating: nil, count: Self.keyCount) }
                if allSections {
                    sections.append((String(decoding: name, as: UTF8.self), [String?](repeating: nil, count: Self.keyCount)))
                    inSection = true
                }
            } else {
                // One pass to the `=`: key characters, then only spaces or tabs before it.
                var eq = lo, khi = lo
                while eq < hi {
                    let c = bytes[eq]
                    if c == UInt8(ascii: "=") { break }
                    if Self.isKeyCharacter(c) {
                        guard khi == eq else { return nil }   // a key character after a space
                        khi = eq + 1
                    } else if c != 0x20, c != 0x09 {
                        return nil
                    }
                    eq += 1
                }
                guard eq < hi, khi > lo else { return nil }
                let klo = lo
                var vlo = eq + 1, vhi = hi
                Self.trim(bytes, &vlo, &vhi)
                // A tab inside a value, in any section, is a control character to the full
                // parser (found by the front-config differential fuzz target).
                for i in vlo..<vhi where bytes[i] == 0x09 { return nil }
                guard inGlobal || inWanted || inSection else {
                    // Another profile's line: only whether its key is one the full program knows
                    // (it warns of one it does not, on every command that reads the file).
                    guard Self.keyIndex(bytes, klo, khi) != nil else { return nil }
                    continue
                }
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[vlo..<vhi]), as: UTF8.self)
                if inGlobal {
                    // The other global keys (the sign-in notification) do not touch the token.
                    let globals = SettingsCatalogue.globalKeys
                    var g = 0
                    while g < globals.count, !ASCIIText.equals(bytes, klo, khi, globals[g]) { g += 1 }
                    guard g < globals.count else { return nil }
                    if ASCIIText.equals(bytes, klo, khi, SettingsCatalogue.defaultProfile.key!) {
                        guard defaultProfile == nil else { return nil }
                        defaultProfile = value
                    } else {
                        guard !otherGlobalSeen else { return nil }   // no duplicate keys, as everywhere here
                        otherGlobalSeen = true
                    }
                } else {
                    guard let index = Self.keyIndex(bytes, klo, khi) else { return nil }
                    if inWanted {
                        guard values![index] == nil else { return nil }
                        values![index] = value
                    }
                    if inSection {
                        guard sections[sections.count - 1].values[index] == nil else { return nil }
                        sections[sections.count - 1].values[index] = value
                    }
                }
            }
        }
        if let name = Self.nonEmpty(defaultProfile), !Self.isProfileName(name) { return nil }   // the full program reports it
        return (chosen ?? Self.nonEmpty(defaultProfile) ?? "default", values, sections)
    }

    /// What the selected profile binds the cache to, when its section exists and every value in
    /// it is one the full program accepts without a word (``CacheGate/profileBinding(_:)``).
    func binding() -> CachePolicy.Binding? { values.flatMap(CacheGate.profileBinding) }

    /// The selected profile's value of a key (nil: absent, or no such section).
    func value(_ key: String) -> String? {
        guard let values, let index = Self.keyIndex(key) else { return nil }
        return values[index]
    }

    static func isProfileName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { ProfileNameRule.isValid(bytes) }
    static func isProfileName(_ name: String) -> Bool { ProfileNameRule.isValid(name) }

    /// Letters, digits and `_`: the full parser's key characters, in ASCII. One bit test each.
    @inline(__always)
    static func isKeyCharacter(_ b: UInt8) -> Bool {
        // 0x30-0x39 in the low word; 0x41-0x5A, 0x5F and 0x61-0x7A in the high one.
        let low: UInt64 = 0x03FF_0000_0000_0000, high: UInt64 = 0x07FF_FFFE_87FF_FFFE
        return b < 64 ? (low >> UInt64(b)) & 1 == 1 : b < 128 && (high >> UInt64(b - 64)) & 1 == 1
    }

    /// `default_profile =` (empty) means no default, as in the full program.
    private static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    /// FNV-1a, 64 bits.
    private static func fnv1a(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// The first index at or after `from` whose 8-byte word is not all printable ASCII
    /// (0x20–0x7E), eight bytes at a time; the byte loop after it decides exactly. Most of a
    /// configuration file is plain text, so the per-byte loop runs only near line ends: with many
    /// profiles this scan is most of the fast path's work (docs/performance.md §6).
    /// Word tests (Bit Twiddling Hacks, "determine if a word has a byte less than n"): each is
    /// exact about whether any byte matches, and a match only hands the word to the byte loop.
    static func skipPrintable(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = start
        while i + 8 <= bytes.count {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let below20 = (w &- ones &* 0x20) & ~w & highs       // a byte < 0x20 (newline, tab, controls)
            let del = w ^ (ones &* 0x7F)
            let is7F = (del &- ones) & ~del & highs                // a byte == 0x7F
            if below20 | (w & highs) | is7F != 0 { break }        // or a byte >= 0x80
            i += 8
        }
        return i
    }

    /// Narrows `lo..<hi` past spaces and tabs at both ends.
    private static func trim(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: inout Int, _ hi: inout Int) {
        while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 { lo += 1 }
        while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
    }
}
