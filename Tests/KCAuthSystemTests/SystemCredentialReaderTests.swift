import Foundation
import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// Client secrets and platform assertions from files the platform mounts (Kubernetes, Docker).
@Suite("SystemCredentialReader")
final class SystemCredentialReaderTests {
    let dir: String = {
        var template = Array("/tmp/kcauth-credential-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }()

    deinit {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
        let path = dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        chmod(path, mode)
        return path
    }

    @Test func readsAFileThroughKubernetesStyleSymlinks() throws {
        // Kubernetes: token -> ..data/token, ..data -> ..2026_11_24_09_00_00.123
        mkdir(dir + "/..2026", 0o755)
        _ = write("..2026/token", "s3cret\n")
        symlink("..2026", dir + "/..data")
        symlink("..data/token", dir + "/token")
        let reader = SystemCredentialReader(environment: [:])
        #expect(try reader.readFile(dir + "/token", limit: 100) == Array("s3cret\n".utf8))
        let source = ClientSecretSource(.file(dir + "/token"))
        #expect(try source.secret(using: reader).secret.reveal() == "s3cret")
    }

    @Test func aFIFOIsRefusedAtOnceInsteadOfHanging() throws {
        let path = dir + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        #expect { try SystemCredentialReader(environment: [:]).readFile(path, limit: 100) } throws: {
            ($0 as? KCAuthError)?.message.contains("not a regular file") == true
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func aFileOverTheCapIsRefusedWithoutItsContent() throws {
        let path = write("big", String(repeating: "Q", count: 101))
        #expect { try SystemCredentialReader(environment: [:]).readFile(path, limit: 100) } throws: { error in
            guard let error = error as? KCAuthError else { return false }
            return error.code == .configuration && error.message.contains("larger than 100") && !error.message.contains("QQQ")
        }
        #expect(try SystemCredentialReader(environment: [:]).readFile(write("exact", String(repeating: "Q", count: 100)), limit: 100).count == 100)
    }

    @Test func missingFilesAndDirectoriesAreConfigurationErrors() throws {
        let reader = SystemCredentialReader(environment: [:])
        #expect { try reader.readFile(dir + "/nope", limit: 100) } throws: {
            ($0 as? KCAuthError)?.code == .configuration && ($0 as? KCAuthError)?.message.contains(dir + "/nope") == true
        }
        #expect { try reader.readFile(dir, limit: 100) } throws: { ($0 as? KCAuthError)?.code == .configuration }
    }

    @Test func environmentIsTheOneGiven() {
        let reader = SystemCredentialReader(environment: ["KCAUTH_CLIENT_SECRET": "x"])
        #expect(reader.environmentValue("KCAUTH_CLIENT_SECRET") == "x")
        #expect(reader.environmentValue("HOME") == nil)
    }
}
