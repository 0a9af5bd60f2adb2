import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// `kcauth doctor` in-process: the use case's checks presented, typed remedies in the CLI's words.
@Suite struct DoctorCommandTests {
    func run(_ fake: FakeAdapters, _ args: [String] = ["doctor"]) -> (code: Int32, out: String) {
        let console = RecordingConsole()
        let code = KCAuthMain.run(arguments: args, services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        return (code, console.stdout)
    }

    @Test func aFailedCheckShowsItsRemedyInTheCLIsWords() {
        let fake = FakeAdapters(config: "[default]\nstorage = file\n")
        fake.host.browserCheck = DoctorCheck("browser", "browser launcher", .fail, "no browser launcher found (tried: xdg-open)",
                                             remedy: .installBrowserLauncher(wsl: false))
        let r = run(fake)
        #expect(r.code == 1)
        #expect(r.out.contains("FAIL  browser launcher: no browser launcher found (tried: xdg-open); fix: install xdg-utils or set $BROWSER; "
                               + "over SSH, log in with the URL printed by `kcauth login --no-browser`\n"))
        #expect(r.out.hasSuffix("1 of 13 checks failed; fix them in the order shown.\n"), "\(r.out)")
        let json = run(fake, ["doctor", "-o", "json"]).out
        #expect(json.contains("\"install xdg-utils or set $BROWSER; over SSH"), "\(json)")
    }

    @Test func remediesReadAsBefore() {
        #expect(RemedyWords.text(.checkCA(host: "h", caFile: nil)) == "if the provider uses a private CA, pass it with --ca-file PEM (or KCAUTH_CA_FILE)")
        #expect(RemedyWords.text(.checkCA(host: "h", caFile: "/ca.pem")) == "check that /ca.pem holds the CA that issued it")
        #expect(RemedyWords.text(.checkHostName(host: "h")) == "check the host name in the issuer URL and the DNS")
        #expect(RemedyWords.text(.signInWithPAR([.auto, .never])) == "sign in with `--par auto` or `--par never`")
        #expect(RemedyWords.text(.signInWithPAR([.auto])) == "sign in with `--par auto`")
        #expect(RemedyWords.text(.signInWithoutDPoP) == "sign in without DPoP (`kcauth login --dpop-mode no`)")
        #expect(RemedyWords.text(.unlockStore)
                == "run `kcauth unlock` (once per boot, from any terminal), or give --passphrase-file / $KCAUTH_PASSPHRASE_FILE")
        #expect(RemedyWords.text(.createEncryptedStore) == "create it with `kcauth login --storage encrypted`")
        #expect(ErrorPresenter.line(KCAuthError(.storageLocked, "the encrypted store /s/store.key is locked", remedy: .unlockStore))
                == "error: the encrypted store /s/store.key is locked; run `kcauth unlock` (once per boot, from any terminal), "
                   + "or give --passphrase-file / $KCAUTH_PASSPHRASE_FILE")
    }

    /// `--bundle`: every part written, nothing on stdout, one line per part and the path on
    /// stderr, and exit 0 although a check failed. (Tests/Integration/test_doctor_bundle.py runs
    /// it for real: the archive, the versions, the trace, no secret.)
    @Test func aBundleIsWrittenWhateverTheChecksFound() {
        let fake = FakeAdapters(config: "[default]\nstorage = file\nissuer = \(Fixtures.issuer)\nclient_id = kcauth\n")
        fake.serveProvider()
        fake.host.browserCheck = DoctorCheck("browser", "browser launcher", .fail, "no browser launcher found", remedy: .installBrowserLauncher(wsl: false))
        let console = RecordingConsole()
        let code = KCAuthMain.run(arguments: ["doctor", "--bundle", "/tmp/b.tar.gz"],
                                  services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        #expect(code == 0 && console.stdout == "", "\(console.stderr)")
        let members = fake.bundleHost.written["/tmp/b.tar.gz"] ?? []
        let names = members.map { $0.name }
        #expect(names == ["version.txt", "system.txt", "configuration.txt", "discovery.json", "doctor.txt", "doctor.json", "token.txt",
                          "token-trace.log"].map { "kcauth-bundle/" + $0 })
        func text(_ name: String) -> String { String(decoding: members.first { $0.name == "kcauth-bundle/" + name }?.bytes ?? [], as: UTF8.self) }
        #expect(text("doctor.txt").contains("FAIL  browser launcher: no browser launcher found; fix: install xdg-utils"))
        #expect(text("doctor.json").contains("\"ok\": false"))
        #expect(text("system.txt").contains("  libcurl: 7.88.1\n"))
        #expect(text("configuration.txt").contains("issuer = \(Fixtures.issuer) (the profile's issuer)\n"))
        // The fake gives no private directory for the trace: said, not thrown.
        #expect(text("token.txt").hasPrefix("kcauth token --profile default\nnot run: error: a test gives no private directory"))
        let lines = console.stderr.split(separator: "\n")
        #expect(lines.count == names.count + 1 && lines.last?.hasPrefix("wrote /tmp/b.tar.gz: ") == true, "\(console.stderr)")
        #expect(lines.first?.hasPrefix("bundle: version.txt: kcauth \(KCAuthMain.version) (") == true)
    }

    @Test func aBundleTakesNoOutputFormat() {
        let fake = FakeAdapters(config: "[default]\nstorage = file\n")
        let console = RecordingConsole()
        let code = KCAuthMain.run(arguments: ["doctor", "--bundle", "/tmp/b.tar.gz", "-o", "json"],
                                  services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        #expect(code == 2 && fake.bundleHost.written.isEmpty)
        #expect(console.stderr.hasPrefix("error: --bundle writes the report as text and as JSON: drop -o"))
    }
}
