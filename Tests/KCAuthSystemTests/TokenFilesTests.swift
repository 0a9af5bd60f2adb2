import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// `exec --keep-fresh`'s token files on real file systems: memory-backed places only (/dev/shm
/// is a tmpfs wherever these tests run; /tmp under the repository's build is a disk here), the
/// first write never over what is there, and leftovers of killed runs removed.
@Suite("Token files")
struct TokenFilesTests {
    /// A directory of the test's own under /dev/shm (0700), removed afterwards.
    final class ShmDir {
        let path: String

        init() throws {
            var template = Array("/dev/shm/kcauth-unit-XXXXXX".utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw NetTestError("mkdtemp on /dev/shm failed")
            }
            path = String(cString: made)
        }

        deinit { _ = try? NetChildProcess.run(["rm", "-rf", path]) }
    }

    @Test("/dev/shm is memory-backed, a directory on the build's disk is not")
    func memoryBacked() throws {
        let shm = try ShmDir()
        #expect(TokenDirectory.isMemoryBacked(shm.path))
        let disk = try NetTempDir()
        defer { disk.remove() }
        let mounts = "/dev/vda / ext4 rw 0 0\ntmpfs /dev/shm tmpfs rw 0 0\ntmpfs \(disk.path.replacingSpaces) tmpfs rw 0 0\n"
        #expect(TokenDirectory.isMemoryBacked(disk.path, mounts: mounts), "the deepest mount point counts")
        #expect(!TokenDirectory.isMemoryBacked(disk.path, mounts: "/dev/vda / ext4 rw 0 0\n"))
        #expect(TokenDirectory.unescape("/a\\040b\\134c") == "/a b\\c")
    }

    @Test("no memory-backed place: a clear error, nothing made")
    func noPlace() throws {
        let disk = try NetTempDir()
        defer { disk.remove() }
        let onDisk = TokenDirectory.isMemoryBacked(disk.path) ? [] : [disk.path, disk.path + "/missing"]
        guard !onDisk.isEmpty else { return }  // this machine's /tmp is a tmpfs: nothing to show
        let directory = TokenDirectory(places: onDisk)
        #expect(directory.usable.isEmpty)
        #expect { try directory.create() } throws: { error in
            let message = (error as? KCAuthError)?.message ?? ""
            return message.hasPrefix("no memory-backed place for the token file: \(disk.path), ")
        }
    }

    @Test("a private directory named by its process, locked while it runs; leftovers of dead processes go")
    func createAndRemoveLeftovers() throws {
        let shm = try ShmDir()
        let directory = TokenDirectory(places: ["/nonexistent-runtime", shm.path])
        let made = try directory.create()
        defer { close(made.lock) }
        #expect(made.path.hasPrefix(shm.path + "/kcauth-token-\(getpid())-"))
        var info = stat()
        #expect(lstat(made.path, &info) == 0 && info.st_mode & 0o777 == 0o700 && info.st_uid == geteuid())
        #expect(TokenDirectory.owner(String(made.path.split(separator: "/").last!)) == getpid())

        // A dead process's directory (with a token and a temporary file cut short) and a
        // directory whose flock is held (its owner alive in another PID namespace, say).
        let dead = try deadPID()
        let leftover = shm.path + "/kcauth-token-\(dead)-AbC123"
        let held = shm.path + "/kcauth-token-\(dead)-HeLd12"
        for dir in [leftover, held] { #expect(mkdir(dir, 0o700) == 0) }
        for file in ["token", "token.tmp-x1y2z3"] { touch(leftover + "/" + file) }
        let holder = open(held, O_RDONLY | O_DIRECTORY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let notOurs = shm.path + "/kcauth-token-notapid"
        #expect(mkdir(notOurs, 0o700) == 0)

        directory.removeLeftovers()
        #expect(access(leftover, F_OK) != 0, "the dead process's directory is gone, with its files")
        #expect(access(held, F_OK) == 0 && access(made.path, F_OK) == 0 && access(notOurs, F_OK) == 0)
    }

    @Test("the first write refuses what is there (a file, a link) and follows no link; the removal takes only kcauth's file")
    func userPath() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        let files = SystemTokenFiles()
        try dir.write("existing", "keep me")
        #expect(files.exists(dir.file("existing")))
        #expect(symlink(dir.file("target"), dir.file("link")) == 0)
        #expect(files.exists(dir.file("link")), "a dangling link is something")
        #expect { try files.write("t0", to: dir.file("link")) } throws: { ($0 as? KCAuthError)?.code == .usage }
        #expect(access(dir.file("target"), F_OK) != 0, "the link was not followed")

        let path = dir.file("token")
        try files.write("t1", to: path)
        try files.write("t2", to: path)
        #expect(dir.read("token") == Array("t2".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // Replaced by someone else meanwhile: not written over, not removed.
        #expect(unlink(path) == 0)
        try dir.write("token", "someone else's")
        #expect { try files.write("t3", to: path) } throws: { $0 is KCAuthError }
        files.remove(path, directory: nil)
        #expect(dir.read("token") == Array("someone else's".utf8))
    }

    private func touch(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
    }

    /// A process id nobody has now: a child that has ended and been reaped.
    private func deadPID() throws -> pid_t {
        let child = try NetChildProcess(["true"])
        child.stop()  // reaped
        return child.pid
    }
}

extension String {
    fileprivate var replacingSpaces: String {
        var out = ""
        for c in self { out += c == " " ? "\\040" : String(c) }
        return out
    }
}
