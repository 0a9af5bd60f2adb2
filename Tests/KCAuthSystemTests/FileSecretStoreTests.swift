import Glibc
import KCAuthCore
import Synchronization
import Testing
@testable import KCAuthSystem

/// The plaintext file store (only ever chosen by name): private modes, atomic replacement, and
/// refusing files that are not private any more.
@Suite("FileSecretStore")
struct FileSecretStoreTests {
    let key = SecretKey(profile: "work", issuer: "https://sso.example.com/realms/demo", clientID: "cli")

    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    func entries(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func writesPrivatelyAndAtomicallyAndWarnsEveryTime() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let warnings = Mutex<[String]>([])
        let store = FileSecretStore(directory: tmp.file("state/kcauth"), warn: { w in warnings.withLock { $0.append(w) } })
        #expect(store.name == "file")
        #expect(try store.read(profile: "work") == nil, "nothing stored, not even the directory")

        try store.write(#"{"a":1}"#, for: key)
        try store.write(#"{"b":2}"#, for: key)
        #expect(try store.read(profile: "work") == #"{"b":2}"#, "replaced whole")
        #expect(mode(tmp.file("state/kcauth")) == 0o700)
        #expect(mode(store.path(for: "work")) == 0o600)
        #expect(entries(tmp.file("state/kcauth")) == ["work.json"], "no temp files left behind")
        #expect(warnings.withLock { $0.count } == 2)
        #expect(warnings.withLock { $0[0] }.contains("plaintext in \(store.path(for: "work"))"))

        #expect(try store.delete(profile: "work"))
        #expect(try !store.delete(profile: "work"))
        #expect(try store.read(profile: "work") == nil)
    }

    @Test func refusesAFileOthersCanRead() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let store = FileSecretStore(directory: tmp.path)
        try store.write("secret", for: key)
        chmod(store.path(for: "work"), 0o644)
        let error = try #require(throws: KCAuthError.self) { try store.read(profile: "work") }
        #expect(error.code == .storageUnavailable)
        #expect(error.message == "refusing to use \(store.path(for: "work")): it is accessible to group or others (mode 0644)")
        #expect(error.hint?.contains("chmod 600") == true)
    }

    @Test func refusesASymlink() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        try tmp.write("elsewhere", "secret")
        let store = FileSecretStore(directory: tmp.path)
        symlink(tmp.file("elsewhere"), store.path(for: "work"))
        let error = try #require(throws: KCAuthError.self) { try store.read(profile: "work") }
        #expect(error.message.hasSuffix("it is a symbolic link"))
    }

    @Test func closesItsOwnDirectoryBeforeWritingAndRefusesAWritableOneForReading() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let dir = tmp.file("kcauth")
        mkdir(dir, 0o700)
        chmod(dir, 0o777)
        let store = FileSecretStore(directory: dir)
        #expect(throws: KCAuthError.self) { try store.read(profile: "work") }
        try store.write("secret", for: key)
        #expect(mode(dir) == 0o700)
        #expect(try store.read(profile: "work") == "secret")
    }

    @Test func aDirectoryThatCannotBeMadeIsStorageUnavailable() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        try tmp.write("blocker", "a file where the directory should be")
        let store = FileSecretStore(directory: tmp.file("blocker/kcauth"))
        let error = try #require(throws: KCAuthError.self) { try store.write("s", for: key) }
        #expect(error.code == .storageUnavailable)
    }

    @Test func theDefaultDirectoryFollowsXDG() {
        #expect(FileSecretStore.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/kcauth")
        #expect(FileSecretStore.defaultDirectory(environment: ["HOME": "/h", "XDG_STATE_HOME": "/s"]) == "/s/kcauth")
        #expect(FileSecretStore.defaultDirectory(environment: ["HOME": "/h", "XDG_STATE_HOME": "rel"]) == "/h/.local/state/kcauth")
    }
}
