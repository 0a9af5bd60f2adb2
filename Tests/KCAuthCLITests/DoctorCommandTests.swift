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
}
