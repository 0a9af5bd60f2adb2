import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// `kcauth doctor`'s local checks that need no keyring: runtime directory and browser launcher.
@Suite("doctor host checks")
struct HostChecksTests {
    @Test func runtimeDirectory() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        chmod(tmp.path, 0o700)
        #expect(HostChecks(environment: ["XDG_RUNTIME_DIR": tmp.path]).runtimeDirectory().status == .pass)
        #expect(HostChecks(environment: [:]).runtimeDirectory().detail == "$XDG_RUNTIME_DIR is not set")
        #expect(HostChecks(environment: ["XDG_RUNTIME_DIR": tmp.file("missing")]).runtimeDirectory().status == .fail)
        chmod(tmp.path, 0o755)
        let open = HostChecks(environment: ["XDG_RUNTIME_DIR": tmp.path]).runtimeDirectory()
        #expect(open.status == .fail && open.detail.contains("mode 0755"), "\(open)")
    }

    @Test func browserLauncher() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        try tmp.write("open-it", "#!/bin/sh\n", mode: 0o755)
        let found = HostChecks(environment: ["BROWSER": "nothere:open-it %s", "PATH": tmp.path]).browser()
        #expect(found.status == .pass)
        #expect(found.detail == tmp.file("open-it") + " (from $BROWSER)")
        let missing = HostChecks(environment: ["PATH": tmp.path]).browser()
        #expect(missing.status == .fail)
        #expect(missing.detail == "no browser launcher found (tried: xdg-open)")
        #expect(missing.fix == nil && missing.remedy == .installBrowserLauncher(wsl: false))
    }

    @Test func noBusFailsTheFirstKeyringCheckAndSkipsTheOthers() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let checks = KeyringChecks(environment: ["XDG_RUNTIME_DIR": tmp.path]).run()
        #expect(checks.map(\.status) == [.fail, .skip, .skip])
        #expect(checks[0].detail.hasPrefix("no D-Bus session bus"))
        #expect(checks[0].remedy == .startKeyring, "the CLI words it, naming the stores that need no keyring")
    }
}
