#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import Testing

/// One reader for every file both programs trust: exactly the file's bytes, bounded, never
/// blocking, under the rule of its kind. Real files in a private temporary directory.
@Suite struct ContractFileTests {
    final class Directory {
        let path: String
        init() {
            var template = Array("/tmp/kcauth-contract-test.XXXXXX".utf8CString)
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

    @Test(arguments: [0, 1, 87, 4096, 65_535, 65_536, 300_000])
    func readsExactlyTheFilesBytes(size: Int) {
        let dir = Directory()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = dir.file("f", bytes)
        #expect(ContractFile.read(path, rule: .secret) == .bytes(bytes))
        #expect(ContractFile.read(path, rule: .configuration) == .bytes(bytes))
    }

    @Test func aFileOverTheLimitIsRefused() {
        let dir = Directory()
        #expect(ContractFile.read(dir.file("big", [UInt8](repeating: 65, count: 513)), rule: .secret, limit: 512)
            == .refused(path: dir.path + "/big", .tooLarge(limit: 512)))
    }

    @Test func aSecretRefusesGroupOrOtherAccessAndSymlinks() {
        let dir = Directory()
        let shared = dir.file("shared", Array("x".utf8), mode: 0o640)
        #expect(ContractFile.read(shared, rule: .configuration) == .bytes(Array("x".utf8)))
        #expect(ContractFile.read(shared, rule: .secret) == .refused(path: shared, .accessibleToOthers(mode: 0o640)))
        let target = dir.file("target", Array("y".utf8))
        symlink(target, dir.path + "/link")
        #expect(ContractFile.read(dir.path + "/link", rule: .configuration) == .bytes(Array("y".utf8)))
        #expect(ContractFile.read(dir.path + "/link", rule: .secret) == .refused(path: dir.path + "/link", .symbolicLink))
    }

    /// The configuration rule, as the full program applied it and now the front too.
    @Test func aConfigurationWritableByOthersIsRefused() {
        let dir = Directory()
        let open = dir.file("config", Array("x".utf8), mode: 0o666)
        #expect(ContractFile.read(open, rule: .configuration) == .refused(path: open, .writableByOthers(mode: 0o666)))
        chmod(dir.path, 0o777)
        let fine = dir.file("fine", Array("x".utf8), mode: 0o600)
        #expect(ContractFile.read(fine, rule: .configuration) == .refused(path: dir.path, .writableByOthers(mode: 0o777)))
    }

    /// A FIFO in place of the configuration must not make the front hang (every read has a
    /// deadline).
    @Test func aFIFOIsRefusedAtOnce() {
        let dir = Directory()
        let fifo = dir.path + "/config"
        mkfifo(fifo, 0o600)
        #expect(ContractFile.read(fifo, rule: .configuration) == .refused(path: fifo, .notRegularFile))
        #expect(ContractFile.read(fifo, rule: .secret) == .refused(path: fifo, .notRegularFile))
    }

    @Test func aMissingFileIsAbsent() {
        let dir = Directory()
        #expect(ContractFile.read(dir.path + "/missing", rule: .secret) == .absent)
        #expect(ContractFile.read(dir.path + "/no/such/config", rule: .configuration) == .absent)
    }

    @Test func fileRulesForOwners() {
        var info = stat()
        info.st_mode = S_IFREG | 0o644
        info.st_uid = 1002
        #expect(FileRule.configuration.check(info, euid: 1000) == .ownedByAnotherUser(uid: 1002))
        #expect(FileRule.credential.check(info, euid: 1000) == .ownedByAnotherUser(uid: 1002))
        info.st_uid = 0
        #expect(FileRule.configuration.check(info, euid: 1000) == nil)
        #expect(FileRule.credential.check(info, euid: 1000) == nil, "a Kubernetes secret volume: root, 0644")
        #expect(FileRule.secret.check(info, euid: 1000) == .ownedByAnotherUser(uid: 0))
        info.st_mode = S_IFREG | 0o666
        #expect(FileRule.credential.check(info, euid: 1000) == .writableByOthers(mode: 0o666))
    }
}
