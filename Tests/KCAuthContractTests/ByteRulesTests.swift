#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthContract
import Testing

/// The contract's hot rules were rewritten over bytes (docs/performance.md §4: no `Int(String)`,
/// `split`, `hasPrefix`, integer interpolation on the front's warm path). Each is held here to
/// the String-based implementation it replaced, kept below as the oracle, on fixed cases (leading
/// zeros, signs, overflow, IPv6 spellings, non-ASCII) and on generated text.
@Suite struct ByteRulesTests {
    // MARK: the previous implementations

    enum Old {
        static func isLoopbackAddress(_ host: String) -> Bool {
            if host.hasPrefix("[") {
                guard host.hasSuffix("]"), host.count >= 2 else { return false }
                return isIPv6Loopback(host.dropFirst().dropLast())
            }
            if host.contains(":") { return isIPv6Loopback(Substring(host)) }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts.allSatisfy(isOctet) else { return false }
            return parts[0] == "127"
        }

        static func isOctet(_ part: Substring) -> Bool {
            guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  part == "0" || !part.hasPrefix("0"), let value = Int(part) else { return false }
            return value <= 255
        }

        static func isIPv6Loopback(_ text: Substring) -> Bool {
            guard text.utf8.count <= 39 else { return false }
            var head = text, tail: Substring?
            var previous: Character?
            for index in text.indices {
                if text[index] == ":", previous == ":" {
                    head = text[..<text.index(before: index)]
                    tail = text[text.index(after: index)...]
                    break
                }
                previous = text[index]
            }
            guard let front = groups(head), let back = groups(tail ?? "") else { return false }
            if tail == nil {
                guard front.count == 8 else { return false }
            } else {
                guard front.count + back.count <= 7, !(tail ?? "").hasPrefix(":") else { return false }
            }
            let all = front + back
            guard let last = (tail == nil ? front : back).last, last == 1 else { return false }
            return all.dropLast().allSatisfy { $0 == 0 }
        }

        static func groups(_ text: Substring) -> [Int]? {
            guard !text.isEmpty else { return [] }
            var values: [Int] = []
            for part in text.split(separator: ":", omittingEmptySubsequences: false) {
                guard !part.isEmpty, part.count <= 4, part.utf8.allSatisfy({ IssuerRule.isHex($0) }), let value = Int(part, radix: 16) else { return nil }
                values.append(value)
            }
            return values
        }

        static func host(_ text: String) -> HostListRule.Host? {
            let s = String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
            guard !s.isEmpty, s.utf8.count <= 255 else { return nil }
            var name = Substring(s)
            var portText: Substring?
            var port: UInt16?
            if name.hasPrefix("[") {
                guard let close = name.firstIndex(of: "]") else { return nil }
                let rest = name[name.index(after: close)...]
                name = name[...close]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":") else { return nil }
                    portText = rest.dropFirst()
                }
                guard name.dropFirst().dropLast().utf8.allSatisfy({ IssuerRule.isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
                else { return nil }
            } else {
                if let colon = name.firstIndex(of: ":") {
                    portText = name[name.index(after: colon)...]
                    name = name[..<colon]
                }
                guard !name.isEmpty, name.utf8.allSatisfy({ IssuerRule.isAlpha($0) || IssuerRule.isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
                else { return nil }
            }
            if let portText {
                guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy(IssuerRule.isDigit),
                      let p = UInt16(portText), p > 0 else { return nil }
                port = p
            }
            return HostListRule.Host(host: String(name), port: port)
        }

        static func hosts(_ raw: String) -> Result<[HostListRule.Host], HostListRule.InvalidWord> {
            var hosts: [HostListRule.Host] = []
            for word in raw.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
                guard let host = host(String(word)) else { return .failure(HostListRule.InvalidWord(word: String(word))) }
                hosts.append(host)
            }
            return .success(hosts)
        }

        static func normalize(_ raw: String) -> Result<String, IssuerRule.Refusal> {
            var bytes = Array(raw.utf8)[...]
            while let f = bytes.first, f == 0x20 || f == 0x09 { bytes.removeFirst() }
            while let l = bytes.last, l == 0x20 || l == 0x09 { bytes.removeLast() }
            if bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
            let issuer = Array(bytes)
            guard let colon = issuer.firstIndex(of: UInt8(ascii: ":")), colon > 0, IssuerRule.isAlpha(issuer[0]),
                  issuer[1..<colon].allSatisfy({ IssuerRule.isSchemeByte($0, first: false) }),
                  issuer.count >= colon + 3, issuer[colon + 1] == UInt8(ascii: "/"), issuer[colon + 2] == UInt8(ascii: "/")
            else { return .failure(.notAURL) }
            let scheme = SettingCheck.asciiLowercased(String(decoding: issuer[0..<colon], as: UTF8.self))
            let rest = issuer[(colon + 3)...]
            if rest.contains(UInt8(ascii: "?")) || rest.contains(UInt8(ascii: "#")) {
                return authority(rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }) == nil
                    ? .failure(.notAURL) : .failure(.queryOrFragment)
            }
            let authorityEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard let host = authority(rest[rest.startIndex..<authorityEnd]),
                  rest[authorityEnd...].allSatisfy(IssuerRule.isPathByte) else { return .failure(.notAURL) }
            switch scheme {
            case "https": break
            case "http": guard isLoopbackAddress(host) || SettingCheck.asciiLowercased(host) == "localhost" else { return .failure(.plainHTTP) }
            default: return .failure(.unsupportedScheme(scheme))
            }
            return .success(String(decoding: issuer, as: UTF8.self))
        }

        static func authority(_ bytes: ArraySlice<UInt8>) -> String? {
            var hostPart = bytes
            if let close = bytes.lastIndex(of: UInt8(ascii: "]")), bytes.first == UInt8(ascii: "[") {
                let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
                guard !literal.isEmpty, literal.allSatisfy({ IssuerRule.isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return nil }
                hostPart = bytes[bytes.startIndex...close]
                let after = bytes[(close + 1)...]
                guard after.isEmpty || (after.first == UInt8(ascii: ":") && isPort(after.dropFirst())) else { return nil }
            } else {
                if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                    guard isPort(bytes[(colon + 1)...]) else { return nil }
                    hostPart = bytes[bytes.startIndex..<colon]
                }
                guard !hostPart.isEmpty, hostPart.allSatisfy(IssuerRule.isRegNameByte) else { return nil }
            }
            return String(decoding: hostPart, as: UTF8.self)
        }

        static func isPort(_ digits: ArraySlice<UInt8>) -> Bool {
            digits.count <= 5 && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (digits.isEmpty || Int(String(decoding: digits, as: UTF8.self))! <= 65_535)
        }

        static func passwordHome(uid: uid_t, in bytes: [UInt8]) -> String? {
            let wanted = String(uid)
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
                guard fields.count >= 7, String(decoding: fields[2], as: UTF8.self) == wanted else { continue }
                let home = String(decoding: fields[5], as: UTF8.self)
                guard home.hasPrefix("/"), home != "/", !home.utf8.contains(0) else { return nil }
                return home.hasSuffix("/") ? String(home.dropLast()) : home
            }
            return nil
        }

        static func markFile(profile: String, binding: CachePolicy.Binding, directory: String) -> String {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in Array(binding.storage.utf8) + [0] + Array(binding.issuer.utf8) + [0] + Array(binding.clientID.utf8) {
                h = (h ^ UInt64(b)) &* 0x100_0000_01b3
            }
            let hex = String(h, radix: 16)
            return directory + "/" + profile + "." + String(repeating: "0", count: 16 - hex.count) + hex + ".session"
        }

        static func markState(_ bytes: [UInt8]) -> SessionMark.State? {
            let text = String(decoding: bytes, as: UTF8.self)
            if text.hasPrefix("current "), text.utf8.count > 8 { return .current(String(text.dropFirst(8))) }
            if text.hasPrefix("ended ") { return .ended(String(text.dropFirst(6))) }
            return nil
        }

        static func port(_ value: String) -> Bool {
            value.utf8.count >= 1 && value.utf8.count <= 5 && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && Int(value)! <= 65_535
        }
    }

    // MARK: inputs

    static let hosts = [
        "127.0.0.1", "127.255.255.254", "127.0.0.0", "127.0.0.01", "0127.0.0.1", "127.00.0.1", "127.0.0.000", "127.0.0.256",
        "127.0.0.999", "127.0.0.1000", "127.0.0.+1", "+127.0.0.1", "127.0.0.-1", "127.0.0", "127.0.0.1.", ".127.0.0.1", "127..0.1",
        "127.0.0.1 ", "127.0.0.١", "1.2.3.4", "0.0.0.0", "127.1", "", ".", "...", "::1", "[::1]", "[::1", "::1]", "[]", "[",
        "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "00000:0:0:0:0:0:0:1", "0::1", "0:0::1", "::0:1", "::1:0",
        "::", "::2", "1::", "1::1", ":::1", "::1::", "::+1", "::-1", "::0x1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:0:1", "0:0:0:0:0:0:1",
        "[0::1]", "[0000:0::0001]", "[::1]:8080", "::1%lo", "::1\r\n", "::\u{301}1", ":\u{301}:1", "[\u{301}::1]", "[::1]\u{301}",
        "12345::1", "0:0:0:0:0:0::1", "0:0:0:0:0:0:0::1", "::0:0:0:0:0:0:1", "::0:0:0:0:0:0:0:1", "::FFFF:1", "::A", "::a",
        "localhost", "LOCALHOST", "127.evil.example.test", "127.0.0.1.evil.test", "é.example", "Git.Example.TEST",
    ]

    /// Deterministic pseudo-random text over the characters the rules care about.
    static func generated(_ count: Int, alphabet: [String], maxLength: Int, seed: UInt64) -> [String] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var out: [String] = []
        for _ in 0..<count {
            var s = ""
            for _ in 0..<(next() % (maxLength + 1)) { s += alphabet[next() % alphabet.count] }
            out.append(s)
        }
        return out
    }

    static let addressAlphabet = ["0", "1", "2", "7", "5", "9", "0", "1", ".", ":", ":", "[", "]", "f", "F", "+", "-", " ", "a", "\u{301}", "é", "/"]

    // MARK: tests

    @Test func loopbackAddressesAsBefore() {
        for host in Self.hosts + Self.generated(20_000, alphabet: Self.addressAlphabet, maxLength: 12, seed: 1) {
            #expect(CredentialTransport.isLoopbackAddress(host) == Old.isLoopbackAddress(host), "\(host.debugDescription)")
        }
        // Generated spellings of ::1 and 127.x: the positive side too.
        let positive = Self.generated(20_000, alphabet: ["0", "0", "1", ":", ":", "00", "::"], maxLength: 10, seed: 2)
            + Self.generated(20_000, alphabet: ["127", "1", "0", "255", "256", ".", ".", "00"], maxLength: 8, seed: 3)
        var loopbacks = 0
        for host in positive {
            let old = Old.isLoopbackAddress(host)
            if old { loopbacks += 1 }
            #expect(CredentialTransport.isLoopbackAddress(host) == old, "\(host.debugDescription)")
        }
        #expect(loopbacks > 10)
    }

    @Test func hostsAsBefore() {
        let alphabet = Self.addressAlphabet + ["A", "b", "Z", "g", ",", "\t", "8", "6", "5", "3", "x"]
        for text in Self.hosts + ["h:0", "h:00080", "h:65535", "h:65536", "h:99999", "h:+80", "h:-1", "h:", "[::1]:", "[::1]x", "[::1]:+1",
                                  "[::1]:443", "[G::1]", "HOST:443", "a,b", "a, b\tc", ",,", " ", "a,b:0", "é,a", "a \u{301}b"]
            + Self.generated(20_000, alphabet: alphabet, maxLength: 12, seed: 4) {
            #expect(HostListRule.Host(text) == Old.host(text), "\(text.debugDescription)")
            #expect(HostListRule.parse(text) == Old.hosts(text), "\(text.debugDescription)")
        }
        #expect(HostListRule.Host("Git.Example:00443")?.description == "git.example:443")
    }

    @Test func issuersAsBefore() {
        let fixed = ["https://id.example.test/realms/x", "https://id.example.test/realms/x/", "  https://id.example.test\t", "HTTPS://ID.example",
                     "http://127.0.0.1:8180/realms/test", "http://localhost", "http://LocalHost:1/", "http://[::1]:8080/r", "http://[::1]",
                     "http://example.test", "http://127.0.0.1:+80", "http://127.0.0.1:65536", "http://127.0.0.1:065535", "http://127.0.0.1:",
                     "https://h:123456", "https://[]", "https://[::1", "https://h/p?q", "https://h#f", "https://[::1]x/?q", "ftp://h", "h",
                     "https:/h", "1https://h", "https://", "https:///", "https://u@h", "https://h/a b", "https://h/é", "https://é",
                     "http://127.0.0.1.evil", "", "/", "https://h//", "https://h%41", "x-y+z.1://h"]
        let alphabet = ["h", "t", "p", "s", "H", "S", ":", "//", "/", "[", "]", "1", "0", "127.0.0.1", "::1", "?", "#", "@", " ", "%", "localhost", "é", "+", "8"]
        for raw in fixed + Self.generated(30_000, alphabet: alphabet, maxLength: 9, seed: 5)
            + Self.generated(10_000, alphabet: ["http://", "https://", "127.0.0.1", "[::1]", "localhost", ":", "80", "/", "+1", "65536", "x"], maxLength: 5, seed: 6) {
            #expect(IssuerRule.normalize(raw) == Old.normalize(raw), "\(raw.debugDescription)")
        }
    }

    @Test func portsAsBefore() {
        for value in ["0", "1", "8080", "65535", "65536", "99999", "100000", "00080", "000000", "+80", "-1", " 80", "80 ", "", "8\u{301}", "٨٠"] {
            #expect(SettingCheck.port.accepts(value, at: .file) == Old.port(value), "\(value.debugDescription)")
            #expect(SettingCheck.port.accepts(value, at: .environment) == Old.port(value), "\(value.debugDescription)")
        }
    }

    @Test func passwordHomesAsBefore() {
        let files = [
            "root:x:0:0:root:/root:/bin/bash\nu:x:1000:1000::/home/u:/bin/sh\n",
            "u:x:01000:1:g:/wrong:/bin/sh\nu:x:1000:1:g:/home/u/:/bin/sh\nv:x:1000:1:g:/second:/bin/sh\n",
            "short:x:1000:1:g:/home/short\nu:x:1000:1:g:/home/u:\n",
            "u:x:1000:1:g:/home/u:/bin/sh:extra:fields\n",
            "u:x:+1000:1:g:/plus:/bin/sh\nu:x:1000 :1:g:/space:/bin/sh\nu:x: 1000:1:g:/space2:/bin/sh\n",
            "\n\n::1000::::\nu:x:1000:1:g:relative:/bin/sh\n",
            "u:x:1000:1:g:/:/bin/sh\n",
            "u:x:1000:1:g::/bin/sh\n",
            "u:x:1000:1:g:/ho\u{0}me:/bin/sh\n",
            "u:x:1000:1:g:/\u{301}x:/bin/sh\n",
            "u:x:1000:1:g:/h/\u{301}:/bin/sh\n",
            "u:x:1000:1:g:/h\u{600}/:/bin/sh\n",
            "u:x:4294967295:1:g:/max:/bin/sh\nu:x:4294967296:1:g:/over:/bin/sh\n",
            "u:x:1000:1:g:/crlf:/bin/sh\r\n",
        ]
        for text in files {
            let bytes = Array(text.utf8)
            for uid: uid_t in [0, 1, 1000, 100, 4_294_967_295] {
                #expect(PasswordFile.home(uid: uid, in: bytes) == Old.passwordHome(uid: uid, in: bytes), "\(uid) \(text.debugDescription)")
            }
        }
        // Invalid UTF-8 in a field the rule does not read.
        let bytes: [UInt8] = Array("u:x:".utf8) + [0xFF] + Array(":1000:1:g:/nope:/bin/sh\nu:x:1000:1:g:/h:".utf8) + [0xC3]
        #expect(PasswordFile.home(uid: 1000, in: bytes) == Old.passwordHome(uid: 1000, in: bytes))
    }

    @Test func sessionMarksAsBefore() {
        let bindings = [CachePolicy.Binding(storage: "keyring", issuer: "http://127.0.0.1:8180/realms/test", clientID: "kcauth"),
                        CachePolicy.Binding(storage: "", issuer: "", clientID: ""),
                        CachePolicy.Binding(storage: "file", issuer: "https://é.example", clientID: "c\u{0}d")]
        for binding in bindings {
            #expect(SessionMark.file(profile: "p", binding: binding, directory: "/d") == Old.markFile(profile: "p", binding: binding, directory: "/d"))
        }
        // A hash with leading zero nibbles is padded to 16 digits.
        for storage in Self.generated(2_000, alphabet: ["a", "b", "c", "1"], maxLength: 6, seed: 7) {
            let binding = CachePolicy.Binding(storage: storage, issuer: "i", clientID: "c")
            #expect(SessionMark.file(profile: "p", binding: binding, directory: "/d") == Old.markFile(profile: "p", binding: binding, directory: "/d"))
        }
        let texts: [[UInt8]] = ["current s", "current ", "current", "ended s", "ended ", "ended", "current  s", "Current s", "ended current s",
                                "current \u{301}s", "ended \u{301}", "current é", "current s\n", "x"].map { Array($0.utf8) }
            + [Array("current ".utf8) + [0xFF, 0x41], Array("ended ".utf8) + [0xC3], [0xFF] + Array("current s".utf8)]
        for bytes in texts {
            #expect(SessionMark.parse(bytes) == Old.markState(bytes), "\(bytes)")
        }
    }

    @Test func digitsByHand() {
        var out: [UInt8] = []
        for v: UInt64 in [0, 1, 9, 10, 99, 100, 1000, 4_294_967_295, UInt64.max] {
            out.removeAll()
            ASCIIText.appendDecimal(v, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
            out.removeAll()
            ASCIIText.appendHex16(v, to: &out)
            let hex = String(v, radix: 16)
            #expect(String(decoding: out, as: UTF8.self) == String(repeating: "0", count: 16 - hex.count) + hex)
        }
        #expect(ASCIIText.decimal("00080", maxDigits: 5) == 80)
        #expect(ASCIIText.decimal("+80", maxDigits: 5) == nil)
        #expect(ASCIIText.decimal("", maxDigits: 5) == nil)
        #expect(ASCIIText.decimal("123456", maxDigits: 5) == nil)
        #expect(ASCIIText.isAbsolute("/x") && ASCIIText.isAbsolute("/") && !ASCIIText.isAbsolute("x/") && !ASCIIText.isAbsolute(""))
        #expect(ASCIIText.isAbsolute("/\u{301}x") == "/\u{301}x".hasPrefix("/"))
        #expect(ASCIIText.isAbsolute("/é") == "/é".hasPrefix("/"))
    }
}
