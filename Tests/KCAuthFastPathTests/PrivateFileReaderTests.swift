import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthFastPath

/// The fast path's one read per file: exactly the file's bytes, nothing over 64 KiB, and with
/// `mustBePrivate` only what the runtime cache trusts. Real files in a private temporary directory.
@Suite struct PrivateFileReaderTests {
    final class Directory {
        let path: String
        init() {
            var template = Array("/tmp/kcauth-reader-test.XXXXXX".utf8CString)
            path = String(cString: mkdtemp(&template)!)
        }
        deinit { _ = system("rm -rf '\(path)'") }

        func file(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o600) -> String {
            let target = path + "/" + name
            let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
            close(fd)
            chmod(target, mode)
            return target
        }
    }

    @Test(arguments: [0, 1, 87, 4096, 65_535, 65_536])
    func readsExactlyTheFilesBytes(size: Int) {
        let dir = Directory()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = dir.file("f", bytes)
        #expect(PrivateFileReader.read(path, mustBePrivate: false) == bytes)
        #expect(PrivateFileReader.read(path, mustBePrivate: true) == bytes)
    }

    @Test func aFileOver64KiBIsNotRead() {
        let dir = Directory()
        #expect(PrivateFileReader.read(dir.file("big", [UInt8](repeating: 65, count: 65_537)), mustBePrivate: false) == nil)
    }

    @Test func aPrivateReadRefusesGroupOrOtherAccessAndSymlinks() {
        let dir = Directory()
        let shared = dir.file("shared", Array("x".utf8), mode: 0o640)
        #expect(PrivateFileReader.read(shared, mustBePrivate: false) == Array("x".utf8))
        #expect(PrivateFileReader.read(shared, mustBePrivate: true) == nil)
        let target = dir.file("target", Array("y".utf8))
        symlink(target, dir.path + "/link")
        #expect(PrivateFileReader.read(dir.path + "/link", mustBePrivate: false) == Array("y".utf8))
        #expect(PrivateFileReader.read(dir.path + "/link", mustBePrivate: true) == nil)
    }

    @Test func aPrivateDirectoryIsAcceptedWithNoBytesAndAMissingFileIsNil() {
        let dir = Directory()
        #expect(PrivateFileReader.read(dir.path, mustBePrivate: true) == [])
        #expect(PrivateFileReader.read(dir.path, mustBePrivate: false) == nil)
        #expect(PrivateFileReader.read(dir.path + "/missing", mustBePrivate: false) == nil)
    }
}
