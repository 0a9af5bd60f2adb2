import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthFastPath

/// Where the front finds the full program, and which files it refuses to execute. Real files in a
/// private temporary directory (under sticky /tmp), with the modes and owners set per case.
@Suite struct FullProgramTests {
    /// `root/bin/kcauth` is the front; the full program goes in `root/libexec/kcauth/` or `root/bin/`.
    final class Tree {
        let root: String
        var front: String { root + "/bin/kcauth" }
        var installed: String { root + "/libexec/kcauth/kcauth-full" }
        var sibling: String { root + "/bin/kcauth-full" }

        init() {
            var template = Array("/tmp/kcauth-front-test.XXXXXX".utf8CString)
            root = String(cString: mkdtemp(&template)!)
            make(directory: root + "/bin")
            make(directory: root + "/libexec")
            make(directory: root + "/libexec/kcauth")
        }
        deinit { _ = system("rm -rf '\(root)'") }

        func make(directory: String, mode: mode_t = 0o755) {
            mkdir(directory, 0o700)
            chmod(directory, mode)
        }
        func program(_ path: String, mode: mode_t = 0o755) {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            close(fd)
            chmod(path, mode)
        }
        func locate() -> Result<String, FullProgram.Refusal> { FullProgram.locate(front: front) }
    }

    @Test func theInstalledLayoutIsTriedFirstThenTheFrontsOwnDirectory() {
        #expect(FullProgram.candidates(front: "/usr/bin/kcauth") == ["/usr/libexec/kcauth/kcauth-full", "/usr/bin/kcauth-full"])
        #expect(FullProgram.candidates(front: "/work/kc/.build/x86_64-unknown-linux-gnu/debug/kcauth")
                == ["/work/kc/.build/x86_64-unknown-linux-gnu/libexec/kcauth/kcauth-full",
                    "/work/kc/.build/x86_64-unknown-linux-gnu/debug/kcauth-full"])
        #expect(FullProgram.candidates(front: "/kcauth") == ["/libexec/kcauth/kcauth-full", "/kcauth-full"])
    }

    @Test func anInstalledFullProgramIsFound() {
        let tree = Tree()
        tree.program(tree.installed)
        tree.program(tree.sibling)
        #expect(tree.locate() == .success(tree.installed))
    }

    @Test func aBuildTreesFullProgramBesideTheFrontIsFound() {
        let tree = Tree()
        tree.program(tree.sibling)
        #expect(tree.locate() == .success(tree.sibling))
    }

    @Test func noFullProgramIsRefusedNamingBothPlaces() {
        let tree = Tree()
        #expect(tree.locate() == .failure(.missing([tree.installed, tree.sibling])))
    }

    @Test(arguments: [0o775, 0o757, 0o777] as [mode_t])
    func aFullProgramOthersCanWriteIsRefused(mode: mode_t) {
        let tree = Tree()
        tree.program(tree.sibling, mode: mode)
        #expect(tree.locate() == .failure(.unsafe(path: tree.sibling, reason: "it is writable by group or others")))
    }

    @Test func anUnsafeInstalledCopyIsNotPassedOverForTheOneBesideTheFront() {
        let tree = Tree()
        tree.program(tree.installed, mode: 0o777)
        tree.program(tree.sibling)
        #expect(tree.locate() == .failure(.unsafe(path: tree.installed, reason: "it is writable by group or others")))
    }

    @Test func aDirectoryOthersCanWriteToIsRefusedAnywhereAboveTheProgram() {
        let tree = Tree()
        tree.program(tree.installed)
        chmod(tree.root + "/libexec", 0o777)
        #expect(tree.locate() == .failure(.unsafe(path: tree.installed,
                                                  reason: "\(tree.root)/libexec is writable by group or others")))
    }

    @Test func aStickyDirectoryLikeTmpIsAccepted() {
        let tree = Tree()
        tree.program(tree.sibling)
        chmod(tree.root + "/bin", 0o1777)
        #expect(tree.locate() == .success(tree.sibling))
    }

    @Test func aSymbolicLinkIsRefused() {
        let tree = Tree()
        tree.program(tree.root + "/elsewhere")
        symlink(tree.root + "/elsewhere", tree.sibling)
        #expect(tree.locate() == .failure(.unsafe(path: tree.sibling, reason: "it is a symbolic link")))
    }

    @Test func aFileThatIsNotExecutableOrNotAFileIsRefused() {
        let tree = Tree()
        tree.program(tree.sibling, mode: 0o644)
        #expect(tree.locate() == .failure(.unsafe(path: tree.sibling, reason: "it is not executable")))
        unlink(tree.sibling)
        tree.make(directory: tree.sibling)
        #expect(tree.locate() == .failure(.unsafe(path: tree.sibling, reason: "it is not a regular file")))
    }

    @Test func aFileOwnedByAnotherUserIsRefused() {
        let tree = Tree()
        tree.program(tree.sibling)
        // As root: give it away. Otherwise: it is ours, so ask as if we were someone else.
        let stranger: uid_t = 4242
        var euid = geteuid()
        if euid == 0 { #expect(chown(tree.sibling, stranger, 0) == 0) } else { euid += 1 }
        let owner = euid == 0 ? stranger : geteuid()
        #expect(FullProgram.locate(front: tree.front, euid: euid)
                == .failure(.unsafe(path: tree.sibling, reason: "it is owned by another user (uid \(owner))")))
    }

    /// The name the front answers as (FrontDispatch): `kcauth` means the kcauth commands, the
    /// helpers' names mean their command, any other name is the full program's to dispatch.
    @Test func onlyTheNameKcauthServesTheFastPath() {
        #expect(FrontDispatch.arguments(argv0: "kcauth", []) == [])
        #expect(FrontDispatch.arguments(argv0: "/usr/bin/kcauth", []) == [])
        #expect(FrontDispatch.arguments(argv0: "./.build/debug/kcauth", []) == [])
        #expect(FrontDispatch.arguments(argv0: "git-credential-kcauth", []) == ["git-credential"])
        #expect(FrontDispatch.arguments(argv0: "/usr/bin/docker-credential-kcauth", []) == ["docker-credential"])
        #expect(FrontDispatch.arguments(argv0: "kcauth-full", []) == nil)
        #expect(FrontDispatch.arguments(argv0: "", []) == nil)
    }
}
