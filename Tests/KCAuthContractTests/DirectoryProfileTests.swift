import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthContract

/// `.kcauth-profile` and the lock place (never where another user could create it first), against
/// real files in a temporary tree.
@Suite struct DirectoryProfileTests {
    static func tree() -> String {
        var template = Array("/tmp/kc-dirprofile-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil)
        let root = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        mkdir(root + "/a", 0o755)
        mkdir(root + "/a/b", 0o755)
        return root
    }

    static func write(_ path: String, _ text: String, mode: mode_t = 0o644) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        fchmod(fd, mode)
        close(fd)
    }

    static func remove(_ root: String) {
        for path in [root + "/a/b/" + DirectoryProfile.fileName, root + "/a/" + DirectoryProfile.fileName] { unlink(path) }
        rmdir(root + "/a/b")
        rmdir(root + "/a")
        rmdir(root)
    }

    @Test func theNearestFileFromTheDirectoryUpNamesTheProfile() {
        let root = Self.tree()
        defer { Self.remove(root) }
        #expect(DirectoryProfile.find(from: root + "/a/b") == .none)
        Self.write(root + "/a/" + DirectoryProfile.fileName, "  work\n")
        #expect(DirectoryProfile.find(from: root + "/a/b") == .named("work", path: root + "/a/.kcauth-profile"))
        Self.write(root + "/a/b/" + DirectoryProfile.fileName, "ops")
        #expect(DirectoryProfile.find(from: root + "/a/b") == .named("ops", path: root + "/a/b/.kcauth-profile"))
        #expect(DirectoryProfile.find(from: nil) == .none)
        #expect(DirectoryProfile.find(from: "relative/dir") == .none)
    }

    @Test func anUntrustedFileOrOneWithoutANameIsIgnored() {
        let root = Self.tree()
        defer { Self.remove(root) }
        let path = root + "/a/" + DirectoryProfile.fileName
        Self.write(path, "work\n", mode: 0o666)
        guard case .ignored(path, .refused(.writableByOthers)) = DirectoryProfile.find(from: root + "/a/b") else {
            Issue.record("a file others may write is not to be trusted")
            return
        }
        Self.write(path, "../work\n")
        #expect(DirectoryProfile.find(from: root + "/a/b") == .ignored(path: path, .notAProfileName))
        Self.write(path, "work\n")
        let owner = geteuid()
        let asAnother = DirectoryProfile.find(from: root + "/a/b", euid: 4242)
        // Root's files are trusted as the configuration file is; anyone else's are not.
        #expect(asAnother == (owner == 0 ? .named("work", path: path) : .ignored(path: path, .refused(.ownedByAnotherUser(uid: owner)))))
    }

    @Test func theHomeComesFromThePasswordFile() {
        let passwd = Array("root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice,,,:/home/alice/:/bin/sh\nbad:x:1001:1001::relative:/bin/sh\n".utf8)
        #expect(PasswordFile.home(uid: 1000, in: passwd) == "/home/alice")
        #expect(PasswordFile.home(uid: 0, in: passwd) == "/root")
        #expect(PasswordFile.home(uid: 1001, in: passwd) == nil)
        #expect(PasswordFile.home(uid: 4242, in: passwd) == nil)
    }

    @Test func locksGoUnderAnExistingHomeOfTheUserNeverTmp() {
        let root = Self.tree()
        defer { Self.remove(root) }
        let uid = geteuid()
        var info = stat()
        if lstat("/run/user/\(uid)", &info) == 0 { return }  // logind's directory wins; nothing else to see here
        #expect(ContractPaths.sharedDirectory(uid: uid) { _ in root } == root + "/.local/state/kcauth/locks")
        #expect(ContractPaths.sharedDirectory(uid: uid) { _ in root + "/missing" } == nil)
        #expect(ContractPaths.sharedDirectory(uid: uid) { _ in nil } == nil)
        #expect(ContractPaths.sharedDirectory(uid: uid &+ 1) { _ in root } == nil, "a home that is not the user's")
    }
}
