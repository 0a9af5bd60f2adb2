import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// The configuration file on disk: only small regular UTF-8 files in a
/// directory nobody else can write to are read; writes go through a dotfile manager's symlink.
@Suite("FileSettingsStore")
struct FileSettingsStoreTests {
    func configurationError(_ message: String) -> (any Error) -> Bool {
        { error in
            let e = error as? KCAuthError
            return e?.code == .configuration && e?.message.contains(message) == true
        }
    }

    func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    @Test func aMissingFileIsAnEmptyDocumentAndTheFirstWriteIsPrivate() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let store = FileSettingsStore(path: tmp.file("kcauth/config"))
        #expect(try store.load() == ConfigDocument())

        var doc = ConfigDocument()
        doc.set("client_id", "kcauth", profile: "work")
        try store.save(doc)
        var info = stat()
        stat(tmp.file("kcauth"), &info)
        #expect(info.st_mode & 0o777 == 0o700)
        stat(tmp.file("kcauth/config"), &info)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try store.load() == doc)
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        #expect(mkfifo(tmp.file("config"), 0o600) == 0)
        // A blocking open would never return: no one opens the FIFO for writing.
        #expect(performing: { try FileSettingsStore(path: tmp.file("config")).load() },
                throws: configurationError("refusing to use \(tmp.file("config")): it is not a regular file"))
    }

    @Test func aDeviceBehindASymlinkIsRefused() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        #expect(symlink("/dev/zero", tmp.file("config")) == 0)
        #expect(performing: { try FileSettingsStore(path: tmp.file("config")).load() }, throws: configurationError("is not a regular file"))
    }

    @Test func aFileOverOneMebibyteIsRefused() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        try tmp.write("config", String(repeating: "# padding\n", count: 110_000))
        #expect(performing: { try FileSettingsStore(path: tmp.file("config")).load() }, throws: configurationError("is larger than 1 MiB"))
    }

    @Test func invalidUTF8IsRefusedRatherThanReplaced() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let fd = open(tmp.file("config"), O_WRONLY | O_CREAT, 0o600)
        let bytes: [UInt8] = Array("[p]\nclient_id = a".utf8) + [0xFF, 0x0A]
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(performing: { try FileSettingsStore(path: tmp.file("config")).load() }, throws: configurationError("is not UTF-8 text"))
    }

    @Test func aSymlinkedFileIsWrittenThroughAndStaysALink() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        #expect(mkdir(tmp.file("dotfiles"), 0o700) == 0 && mkdir(tmp.file("kcauth"), 0o700) == 0)
        try tmp.write("dotfiles/kcauth.conf", "# mine\n[work]\nclient_id = a\n")
        #expect(symlink("../dotfiles/kcauth.conf", tmp.file("kcauth/config")) == 0)
        let store = FileSettingsStore(path: tmp.file("kcauth/config"))

        var doc = try store.load()
        doc.set("client_id", "b", profile: "work")
        try store.save(doc)

        #expect(isSymlink(tmp.file("kcauth/config")))
        #expect(tmp.read("dotfiles/kcauth.conf") == Array("# mine\n[work]\nclient_id = b\n".utf8))
    }

    @Test func aDanglingSymlinkIsRefusedOnWrite() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        #expect(symlink(tmp.file("missing/config"), tmp.file("config")) == 0)
        let store = FileSettingsStore(path: tmp.file("config"))
        #expect(try store.load() == ConfigDocument())
        #expect(performing: { try store.save(ConfigDocument()) }, throws: configurationError("is a symbolic link to a missing file"))
        #expect(isSymlink(tmp.file("config")))
    }

    @Test(arguments: [mode_t(0o777), 0o775, 0o757])
    func aDirectoryOthersCanWriteToIsRefused(mode: mode_t) throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        #expect(mkdir(tmp.file("kcauth"), 0o700) == 0)
        try tmp.write("kcauth/config", "[p]\n")
        chmod(tmp.file("kcauth"), mode)
        let store = FileSettingsStore(path: tmp.file("kcauth/config"))
        let refusal = configurationError("refusing to use \(tmp.file("kcauth")): it is writable by group or others")
        #expect(performing: { try store.load() }, throws: refusal)
        #expect(performing: { try store.save(ConfigDocument()) }, throws: refusal)
        #expect(tmp.read("kcauth/config") == Array("[p]\n".utf8), "left as it was")

        chmod(tmp.file("kcauth"), 0o755)
        #expect(try store.load().profileNames == ["p"], "readable by others is fine: nothing in it is secret")
    }

    @Test func aFileOthersCanWriteToIsRefused() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        try tmp.write("config", "[p]\n", mode: 0o600)
        chmod(tmp.file("config"), 0o620)
        #expect(performing: { try FileSettingsStore(path: tmp.file("config")).load() },
                throws: configurationError("is writable by group or others (mode 0620)"))
    }

    @Test func aValueWithANewlineLeavesTheFileAsItWas() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        try tmp.write("config", "[work]\nclient_id = a\n")
        let store = FileSettingsStore(path: tmp.file("config"))
        var doc = try store.load()
        doc.set("ca_file", "/ca.pem\n[evil]\nissuer = https://evil.example", profile: "work")
        #expect(performing: { try store.save(doc) }, throws: configurationError("control character U+000A"))
        #expect(tmp.read("config") == Array("[work]\nclient_id = a\n".utf8))
    }
}
