import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

@Suite("doctor --bundle's archive")
struct BundleArchiveTests {
    /// The ustar layout (POSIX pax(1)): 512-byte blocks, the size and checksum as octal text,
    /// the data padded to a block, two zero blocks at the end. What `tar` reads back is checked by
    /// Tests/Integration/test_doctor_bundle.py; this pins the bytes.
    @Test func ustarHeadersSizesAndChecksums() {
        var archive = TarArchive(modified: 0o1234567)
        archive.append(BundleMember("kcauth-bundle/a.txt", [UInt8](repeating: 0x61, count: 513)))
        archive.append(BundleMember("kcauth-bundle/empty", []))
        let bytes = archive.finished
        #expect(bytes.count == 512 + 1024 + 512 + 1024)
        func text(_ block: Int, _ offset: Int, _ width: Int) -> String {
            String(decoding: bytes[(block * 512 + offset)..<(block * 512 + offset + width)].prefix { $0 != 0 }, as: UTF8.self)
        }
        #expect(text(0, 0, 100) == "kcauth-bundle/a.txt")
        #expect(text(0, 100, 8) == "0000600")
        #expect(text(0, 124, 12) == "00000001001")  // 513
        #expect(text(0, 136, 12) == "00001234567")
        #expect(text(0, 257, 6) == "ustar" && text(0, 263, 2) == "00" && bytes[156] == UInt8(ascii: "0"))
        #expect(bytes[512..<1025].allSatisfy { $0 == 0x61 } && bytes[1025..<1536].allSatisfy { $0 == 0 })
        for header in [0, 3] {
            var block = Array(bytes[(header * 512)..<(header * 512 + 512)])
            let stored = Int(text(header, 148, 6), radix: 8)
            #expect(block[154] == 0 && block[155] == UInt8(ascii: " "))
            for i in 148..<156 { block[i] = UInt8(ascii: " ") }
            #expect(stored == block.reduce(0) { $0 + Int($1) })
        }
        #expect(text(3, 0, 100) == "kcauth-bundle/empty" && text(3, 124, 12) == "00000000000")
        #expect(bytes[(4 * 512)...].allSatisfy { $0 == 0 })
    }

    @Test func gzipHasItsHeaderAndCompresses() throws {
        let input = [UInt8](repeating: 0x41, count: 100_000)
        let gz = try Gzip.compress(input)
        #expect(gz.prefix(3) == [0x1F, 0x8B, 8])  // RFC 1952 §2.3: ID1, ID2, CM = deflate
        #expect(gz.count < 1000)
        // The trailer: CRC-32 then ISIZE, the input's length mod 2^32, little-endian.
        let size = gz.suffix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(size == input.count)
    }

    @Test func aTargetThatIsALinkOrInAMissingDirectoryIsRefused() throws {
        var template = Array("/tmp/kcauth-bundle-test-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer { SystemBundleHost().remove(directory) }
        let host = SystemBundleHost()
        #expect(throws: KCAuthError.self) { try host.checkTarget(directory + "/missing/bundle.tar.gz") }
        symlink(directory + "/elsewhere", directory + "/link")
        let error = #expect(throws: KCAuthError.self) { try host.checkTarget(directory + "/link") }
        #expect(error?.message == "refusing to use \(directory)/link: it is a symbolic link")
        try host.checkTarget(directory + "/bundle.tar.gz")
        try host.write([BundleMember("kcauth-bundle/x", text: "x")], to: directory + "/bundle.tar.gz")
        var info = stat()
        #expect(stat(directory + "/bundle.tar.gz", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
