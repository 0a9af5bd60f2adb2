import Testing
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// `doctor` in-process over fakes: which store's checks run for which profile, the order of the
/// report, and advice chosen from the transport's typed cause (never from its message).
@Suite struct DoctorTests {
    /// A transport that fails every request with one error.
    struct FailingTransport: HTTPTransport {
        let error: KCAuthError
        func send(_ request: HTTPRequest) throws -> HTTPResponse { throw error }
    }

    static func describe(_ profile: ResolvedProfile) -> String { "profile \(profile.name)" }

    func run(_ fake: FakeAdapters, failing error: KCAuthError? = nil, flags: SettingsFlags = SettingsFlags()) -> Doctor.Report {
        var adapters = fake.adapters
        if let error { adapters.transport = { _ in FailingTransport(error: error) } }
        return KCAuthContext(adapters: adapters).doctor().run(flags, describeSettings: Self.describe)
    }

    @Test func aKeyringProfileWithAReachableProviderPasses() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        fake.transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        let report = run(fake)
        #expect(report.profile == "default")
        #expect(report.checks.map(\.id) == ["session-bus", "secret-service", "default-collection", "config", "settings", "helpers",
                                            "runtime-dir", "browser", "issuer", "discovery", "clock", "dpop-par"])
        #expect(report.checks.allPassed, "\(report.checks.filter { $0.status == .fail })")
        #expect(report.checks[4].detail == "profile default")
        #expect(fake.host.calls == ["keyring"])
    }

    @Test func aFileProfileSkipsTheKeyringAndChecksTheFile() {
        let fake = FakeAdapters(config: "[default]\nstorage = file\n")
        let report = run(fake)
        #expect(fake.host.calls == ["keyring skipped", "file default"])
        #expect(report.checks.prefix(3).allSatisfy { $0.status == .skip && $0.detail.contains("keeps its session in a file") })
        #expect(report.checks[3].id == "state-file")
        // No issuer: the provider's four are skipped, and nothing is sent.
        #expect(report.checks.suffix(4).allSatisfy { $0.status == .skip })
        #expect(fake.transport.requests.isEmpty)
    }

    @Test func anEncryptedProfileRunsTheStoresChecks() {
        let fake = FakeAdapters(config: "[work]\nstorage = encrypted\n")
        fake.host.encryptedChecks = [DoctorCheck("store-key", "encrypted store key file", .fail, "unreadable", fix: "fix it")]
        let report = run(fake, flags: SettingsFlags(profile: "work"))
        #expect(fake.host.calls == ["keyring skipped", "encrypted work"])
        #expect(report.profile == "work" && !report.checks.allPassed)
    }

    @Test func aBrokenConfigurationIsReportedAndTheRestStillRuns() {
        let fake = FakeAdapters(config: "[default\nissuer = x\n")
        let report = run(fake)
        let config = report.checks.first { $0.id == "config" }
        #expect(config?.status == .fail && config?.fix == "fix the file by hand (kcauth never rewrites a file it cannot read)")
        #expect(report.checks.contains { $0.id == "browser" })
    }

    @Test func anUntrustedCertificateGetsTheCAAdvice() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let report = run(fake, failing: KCAuthError(.network, "TLS certificate of sso.example.test is not trusted",
                                                   remedy: .checkCA(host: "sso.example.test", caFile: nil)))
        let issuer = report.checks.first { $0.id == "issuer" }
        #expect(issuer?.status == .fail && issuer?.remedy == .checkCA(host: "sso.example.test", caFile: nil) && issuer?.fix == nil)
    }

    @Test func anUnresolvableHostGetsTheDNSAdvice() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let report = run(fake, failing: KCAuthError(.network, "cannot resolve host sso.example.test",
                                                   remedy: .checkHostName(host: "sso.example.test")))
        let issuer = report.checks.first { $0.id == "issuer" }
        #expect(issuer?.status == .fail && issuer?.remedy == .checkHostName(host: "sso.example.test"))
        #expect(report.checks.filter { $0.status == .skip }.map(\.id) == ["discovery", "clock", "dpop-par"])
    }

    @Test func aFailingHostCheckFailsTheReport() {
        let fake = FakeAdapters(config: "[default]\nstorage = file\n")
        fake.host.runtimeDirectoryCheck = DoctorCheck("runtime-dir", "runtime directory", .fail, "$XDG_RUNTIME_DIR is not set")
        #expect(!run(fake).checks.allPassed)
    }

    @Test func unknownKeysFailTheConfigurationCheckAsAFact() {
        let fake = FakeAdapters(config: "[default]\nstorage = file\nclientid = cli\n")
        let config = run(fake).checks.first { $0.id == "config" }
        #expect(config?.status == .fail && config?.detail == "/fake/config/kcauth/config: 1 key kcauth does not read")
        #expect(config?.fact == .unknownConfigKeys(path: "/fake/config/kcauth/config", [UnknownConfigKey(key: "clientid", line: 3, profile: "default")]))
    }

    @Test func theHelpersCheckNamesEachProfilesHostsAndWhoAnswersAShared() {
        let fake = FakeAdapters(config: "[a]\nhosts = git.example.com\n[b]\nhosts = git.example.com, registry:5000\n[c]\n")
        let helpers = run(fake, flags: SettingsFlags(profile: "a")).checks.first { $0.id == "helpers" }
        #expect(helpers?.status == .pass)
        #expect(helpers?.detail == "a: git.example.com; b: git.example.com (answered by 'a', listed first), registry:5000")
        let none = run(FakeAdapters(config: "[a]\n")).checks.first { $0.id == "helpers" }
        #expect(none?.detail == "no profile lists hosts: the helpers give no server a token")
    }

    @Test func theCAFileIsCheckedOnlyWhenOneIsSet() {
        let fake = FakeAdapters(config: "[default]\nstorage = file\nca_file = /etc/ca.pem\n")
        fake.host.caFileCheck = DoctorCheck("ca-file", "CA file", .fail, "/etc/ca.pem cannot be read", remedy: .readableCAFile)
        let report = run(fake)
        #expect(fake.host.calls == ["keyring skipped", "file default", "ca-file /etc/ca.pem"])
        #expect(report.checks.map(\.id).contains("ca-file") && !report.checks.allPassed)
        let without = FakeAdapters(config: "[default]\nstorage = file\n")
        #expect(!run(without).checks.map(\.id).contains("ca-file"))
    }
}
