import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

@Suite("BrowserOpener")
struct BrowserOpenerTests {
    /// Shell metacharacters and spaces: they must reach the browser untouched.
    let url = "http://127.0.0.1:8400/auth?a=1&b=two words;$(touch /tmp/pwned)|x'\""

    /// A fake browser: records argv (NUL-separated) and where its stdin points, chatters on
    /// stdout and stderr, then renames its record into place (so the test sees it complete).
    static let script = """
        #!/bin/sh
        printf '%s\\0' "$@" > "$KC_OUT.tmp"
        readlink /proc/$$/fd/0 > "$KC_OUT.stdin"
        echo "chatter on stdout"
        echo "chatter on stderr" >&2
        mv "$KC_OUT.tmp" "$KC_OUT"

        """

    private func environment(_ dir: NetTempDir, browser: String?) -> [String: String] {
        var environment = ["KC_OUT": dir.file("argv"), "PATH": String(cString: getenv("PATH"))]
        environment["BROWSER"] = browser
        return environment
    }

    private func recordedArgv(_ dir: NetTempDir) -> [String]? {
        guard let bytes = dir.waitFor("argv") else { return nil }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test("$BROWSER gets exactly [URL], no shell")
    func argvIsExactlyTheURL() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        try dir.write("browser", Self.script, mode: 0o700)
        try BrowserOpener(environment: environment(dir, browser: dir.file("browser"))).open(WireText(url))
        #expect(recordedArgv(dir) == [url])
        #expect(access("/tmp/pwned", F_OK) != 0)
    }

    @Test("%s is replaced by the URL, %% by %, and nothing is appended")
    func percentSSubstitution() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        try dir.write("browser", Self.script, mode: 0o700)
        let browser = "\(dir.file("browser")) --new-tab  --url=%s --ratio=100%%"
        try BrowserOpener(environment: environment(dir, browser: browser)).open(WireText(url))
        #expect(recordedArgv(dir) == ["--new-tab", "--url=\(url)", "--ratio=100%"])
    }

    @Test("a missing command in a : list is skipped; bare names are found on the given PATH")
    func missingCommandSkipped() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        try dir.write("kc-fake-browser", Self.script, mode: 0o700)
        var env = environment(dir, browser: "/nonexistent/browser:no-such-browser-kcauth:kc-fake-browser")
        env["PATH"] = "/nonexistent-dir:\(dir.path):\(env["PATH"]!)"
        try BrowserOpener(environment: env).open(WireText(url))
        #expect(recordedArgv(dir) == [url])
    }

    @Test("the launcher's stdout goes to stderr, its stdin is /dev/null")
    func stdoutGoesToStderr() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        try dir.write("browser", Self.script, mode: 0o700)
        let output = open(dir.file("output"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(output) }
        // The test seam hands the child `output` where production hands it fd 2; stdout is
        // dup'ed from the same descriptor in both cases.
        try BrowserOpener(environment: environment(dir, browser: dir.file("browser")), outputFD: output).open(WireText(url))
        _ = recordedArgv(dir)
        let text = String(decoding: dir.read("output") ?? [], as: UTF8.self)
        #expect(text.contains("chatter on stdout\n"))
        #expect(text.contains("chatter on stderr\n"))
        #expect(String(decoding: dir.read("argv.stdin") ?? [], as: UTF8.self) == "/dev/null\n")
    }

    @Test("no launcher that can start is a configuration error with a hint")
    func missingLauncher() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        try dir.write("not-executable", Self.script, mode: 0o600)
        let browser = "/nonexistent/a:\(dir.file("not-executable"))"
        let error = try #require(throws: KCAuthError.self) {
            try BrowserOpener(environment: environment(dir, browser: browser)).open(WireText(url))
        }
        #expect(error.code == .configuration)
        #expect(error.message == "cannot start a browser (tried: /nonexistent/a, \(dir.file("not-executable")))")
        #expect(error.remedy == .openAddressYourself(fixCommand: false))
        #expect(error.cause == "/nonexistent/a: No such file or directory; \(dir.file("not-executable")): Permission denied")
    }

    @Test("without $BROWSER, xdg-open is looked up on the given PATH")
    func xdgOpenFallback() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        let error = try #require(throws: KCAuthError.self) {
            try BrowserOpener(environment: ["PATH": dir.path]).open(WireText(url))
        }
        #expect(error.message == "cannot start a browser (tried: xdg-open)")

        try dir.write("xdg-open", Self.script, mode: 0o700)
        var env = environment(dir, browser: "")
        env["PATH"] = "\(dir.path):\(env["PATH"]!)"  // the fake xdg-open first; the script needs mv
        try BrowserOpener(environment: env).open(WireText(url))
        #expect(recordedArgv(dir) == [url])
    }

    @Test("$BROWSER parsing", arguments: [
        (nil, [["xdg-open", "U"]]),
        ("", [["xdg-open", "U"]]),
        (" : ", [["xdg-open", "U"]]),
        ("firefox", [["firefox", "U"]]),
        ("firefox --new-window:chromium", [["firefox", "--new-window", "U"], ["chromium", "U"]]),
        ("::w3m\t-o x=%s::", [["w3m", "-o", "x=U"]]),
        ("echo 50% %x %%s", [["echo", "50%", "%x", "%s", "U"]]),
    ] as [(String?, [[String]])])
    func browserParsing(browser: String?, expected: [[String]]) {
        #expect(BrowserOpener.commands(browser: browser, url: "U") == expected)
    }
}
