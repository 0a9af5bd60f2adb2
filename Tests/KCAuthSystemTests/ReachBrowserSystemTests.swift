import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// The system side of signing in from anywhere: the launcher watch, the terminal reader and
/// the WSL launchers.
@Suite struct ReachBrowserSystemTests {
    @Test func wslLaunchersQuoteTheURLForPowerShellAndKeepCmdForSafeURLsOnly() {
        let safe = "http://127.0.0.1:4000/start/abc_-9"
        #expect(BrowserOpener.commands(browser: nil, url: safe, wsl: true) == [
            ["wslview", safe],
            ["powershell.exe", "-NoProfile", "-Command", "Start-Process '\(safe)'"],
            ["cmd.exe", "/c", "start", "\"\"", safe],
        ])
        let odd = "http://h/?a=1&b='x'"
        #expect(BrowserOpener.commands(browser: nil, url: odd, wsl: true) == [
            ["wslview", odd], ["powershell.exe", "-NoProfile", "-Command", "Start-Process 'http://h/?a=1&b=''x'''"],
        ])
        // $BROWSER still comes first on WSL.
        #expect(BrowserOpener.commands(browser: "w3m", url: safe, wsl: true) == [["w3m", safe]])
        #expect(BrowserOpener.commands(browser: nil, url: safe, wsl: false) == [["xdg-open", safe]])
    }

    @Test func theKernelReleaseFileIsRead() throws {
        let path = "/tmp/kcauth-osrelease-\(getpid())"
        defer { unlink(path) }
        let f = fopen(path, "w")
        fputs("5.15.146.1-microsoft-standard-WSL2\n", f)
        fclose(f)
        #expect(WSLProbe(kernelReleasePath: path).isWSL(environment: [:]))
        #expect(!WSLProbe(kernelReleasePath: "/nonexistent/osrelease").isWSL(environment: [:]))
    }

    private func opener() -> BrowserOpener {
        BrowserOpener(environment: ["PATH": "/usr/bin:/bin"], outputFD: open("/dev/null", O_WRONLY), wsl: false)
    }

    private func settle(_ launched: any LaunchedBrowser, seconds: Double = 3) -> KCAuthError? {
        var waited = 0.0
        while waited < seconds {
            if let failure = launched.failure() { return failure }
            usleep(50_000)
            waited += 0.05
        }
        return nil
    }

    @Test func aLauncherThatExitsNonZeroIsReported() throws {
        let launched = try #require(try opener().launch("http://x/", command: try BrowserCommand("sh -c 'exit 3' %s", origin: "browser_command")))
        let failure = try #require(settle(launched))
        #expect(failure.message.contains("exited with status 3"))
    }

    @Test func aLauncherThatSucceedsIsNotReported() throws {
        let launched = try #require(try opener().launch("http://x/", command: try BrowserCommand("true", origin: "browser_command")))
        #expect(settle(launched, seconds: 0.5) == nil)
    }

    @Test func theNextBrowserEntryIsTriedWhenOneFails() throws {
        let o = BrowserOpener(environment: ["PATH": "/usr/bin:/bin", "BROWSER": "false:true"], outputFD: open("/dev/null", O_WRONLY), wsl: false)
        let launched = try #require(try o.launch("http://x/", command: nil))
        #expect(settle(launched, seconds: 1) == nil)
        let both = BrowserOpener(environment: ["PATH": "/usr/bin:/bin", "BROWSER": "false:false"], outputFD: open("/dev/null", O_WRONLY), wsl: false)
        let launchedBoth = try #require(try both.launch("http://x/", command: nil))
        let failure = try #require(settle(launchedBoth))
        #expect(failure.message.contains("false exited with status 1; false exited with status 1"))
    }

    @Test func theTerminalReaderReturnsCompleteLinesWithoutBlocking() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let reader = TerminalLineReader(fd: fds[0])
        #expect(reader.availableLines() == [])  // nothing yet: does not block
        _ = "first\nsec".withCString { write(fds[1], $0, 9) }
        #expect(reader.availableLines() == ["first"])
        _ = "ond\r\n".withCString { write(fds[1], $0, 5) }
        #expect(reader.availableLines() == ["second", ""])
        close(fds[1])
        #expect(reader.availableLines() == nil)
    }
}
