import KCAuthContract
import Testing
@testable import KCAuthCore

@Suite struct KubernetesExecCredentialTests {
    @Test func answersTheVersionKubectlAsksForAndV1WithoutTheVariable() throws {
        let old = try KubernetesExecInfo(environmentValue: #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":true}}"#)
        #expect(old == KubernetesExecInfo(apiVersion: .v1beta1, interactive: true))
        #expect(try KubernetesExecInfo(environmentValue: nil) == KubernetesExecInfo(apiVersion: .v1, interactive: false))
        #expect(try KubernetesExecInfo(environmentValue: "") == KubernetesExecInfo())
        #expect(try KubernetesExecInfo(environmentValue: #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":"yes"}}"#).interactive == false)
    }

    @Test(arguments: ["{", "[]", "\"x\"", #"{"spec":{}}"#, #"{"apiVersion":"client.authentication.k8s.io/v2"}"#, #"{"apiVersion":7}"#])
    func refusesWhatIsNotAnExecCredentialOfAKnownVersion(raw: String) {
        #expect(throws: KCAuthError.self) { try KubernetesExecInfo(environmentValue: raw) }
    }

    @Test func theDocumentCarriesTokenExpiryAndVersion() {
        let json = ExecCredential(version: .v1beta1, token: "t0k", expiresAt: Instant(epochSeconds: 1_763_733_789)).json
        #expect(json == #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t0k","expirationTimestamp":"2025-11-21T14:03:09Z"}}"# + "\n")
        #expect(!ExecCredential(version: .v1, token: "t", expiresAt: nil).json.contains("expirationTimestamp"))
    }
}

@Suite struct KubeconfigTests {
    @Test func theUserEntryRunsKcauthTokenWithTheIDTokenByDefault() {
        let entry = KubeconfigEntry(profile: "work", version: .v1, cluster: "prod", args: ["token", "work"])
        #expect(entry.fragment.contains("      command: kcauth\n      args:\n      - token\n      - work\n"))
        #expect(entry.fragment.contains("      apiVersion: client.authentication.k8s.io/v1\n"))
        #expect(entry.fragment.contains("interactiveMode: IfAvailable"))
        #expect(entry.fragment.hasSuffix("contexts:\n- context:\n    cluster: prod\n    user: kcauth-work\n  name: prod-work\n"))
        let old = KubeconfigEntry(profile: "work", version: .v1beta1, args: ["token"])
        #expect(!old.fragment.contains("interactiveMode"), "kubectl < 1.26 rejects the key in v1beta1")
    }

    @Test func namesThatYAMLWouldMisreadAreQuoted() {
        #expect(KubeconfigEntry.scalar("prod") == "prod")
        #expect(KubeconfigEntry.scalar("--profile") == "--profile")
        for s in ["yes", "1.5", "a: b", "#x", "-", "x\ny"] { #expect(KubeconfigEntry.scalar(s).hasPrefix("\""), "\(s)") }
    }

    static let kubectlWritten = """
    apiVersion: v1
    clusters:
    - cluster:
        server: https://k8s.example.test
      name: prod
    contexts: []
    kind: Config
    users:
    - name: alice
      user:
        token: abc
    - name: kcauth-work
      user:
        token: stale
    """

    @Test func mergeReplacesTheEntryOfTheSameNameAndKeepsEverythingElse() throws {
        let entry = KubeconfigEntry(profile: "work", cluster: "prod", args: Self.args)
        var editor = KubeconfigEditor(text: Self.kubectlWritten)
        try editor.upsert(section: "users", name: entry.userName, item: entry.userItem)
        try editor.upsert(section: "contexts", name: entry.contextName!, item: entry.contextItem!)
        #expect(!editor.text.contains("stale"))
        #expect(editor.text.contains("- name: alice\n  user:\n    token: abc\n- name: kcauth-work\n  user:\n    exec:\n"))
        #expect(editor.text.contains("contexts:\n- context:\n    cluster: prod\n    user: kcauth-work\n  name: prod-work\nkind: Config\n"))
        var again = editor
        try again.upsert(section: "users", name: entry.userName, item: entry.userItem)
        #expect(again == editor, "merging twice changes nothing")
    }

    @Test func mergeAddsMissingSectionsAndIndentedLists() throws {
        var empty = KubeconfigEditor(text: "apiVersion: v1\nkind: Config\n")
        try empty.upsert(section: "users", name: "kcauth-x", item: ["- name: kcauth-x", "  user: {}"])
        #expect(empty.text == "apiVersion: v1\nkind: Config\nusers:\n- name: kcauth-x\n  user: {}\n")
        var indented = KubeconfigEditor(text: "users:\n  - name: \"kcauth-x\"\n    user: {}\n  - name: b\n    user: {}\nkind: Config\n")
        try indented.upsert(section: "users", name: "kcauth-x", item: ["- name: kcauth-x", "  user:", "    token: new"])
        #expect(indented.text == "users:\n  - name: kcauth-x\n    user:\n      token: new\n  - name: b\n    user: {}\nkind: Config\n")
    }

    @Test func aJSONKubeconfigStaysJSONWithTheEntriesReplacedByName() throws {
        let entry = KubeconfigEntry(profile: "work", cluster: "prod", args: Self.args)
        let old = #"{"kind":"Config","users":[{"name":"alice","user":{"token":"abc"}},{"name":"kcauth-work","user":{"token":"stale"}}],"contexts":null}"#
        let once = try KubeconfigText.merged(entry, into: "\n " + old)
        let doc = try #require(JSONValue.parse(Array(once.utf8)))
        #expect(doc["users"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["alice", "kcauth-work"])
        // Parsed objects come back with sorted keys: compare parsed with parsed.
        func reparsed(_ value: JSONValue?) -> JSONValue? { value.flatMap { JSONValue.parse(Array($0.compact.utf8)) } }
        #expect(doc["users"]?.arrayValue?.last == reparsed(entry.userObject) && !once.contains("stale"))
        #expect(doc["contexts"]?.arrayValue?.first == reparsed(entry.contextObject))
        #expect(try KubeconfigText.merged(entry, into: once) == once, "merging twice changes nothing")
        #expect(throws: KCAuthError.self) { try KubeconfigText.merged(entry, into: "{\"users\": ") }
        #expect(throws: KCAuthError.self) { try KubeconfigText.merged(entry, into: #"{"users": {"a": 1}}"#) }
    }

    @Test func aMissingOrBlankFileBecomesAYAMLKubeconfig() throws {
        let entry = KubeconfigEntry(profile: "work", args: Self.args)
        for old in [nil, "", "\n"] as [String?] {
            #expect(try KubeconfigText.merged(entry, into: old).hasPrefix("apiVersion: v1\nkind: Config\nusers:\n- name: kcauth-work\n"))
        }
    }

    @Test func aFlowStyleListIsRefusedNotGuessed() {
        var editor = KubeconfigEditor(text: "users: [{name: a, user: {}}]\n")
        #expect(throws: KCAuthError.self) { try editor.upsert(section: "users", name: "b", item: ["- name: b"]) }
        do {
            try editor.upsert(section: "users", name: "b", item: ["- name: b"])
        } catch let error as KCAuthError {
            #expect(error.remedy == .addEntryByHand && error.hint == nil, "the remedy is typed; the CLI says it")
        } catch {
            Issue.record("\(error)")
        }
    }

    static let args = ["token", "work"]
}

@Suite struct GitCredentialTests {
    @Test func parsesGitsRequestUpToTheBlankLine() throws {
        let r = try GitCredentialRequest(parsing: "capability[]=authtype\ncapability[]=state\nprotocol=https\nhost=Git.Example.test:8443\npath=a=b\n\nhost=ignored\n")
        #expect(r.capabilities == ["authtype", "state"] && r.acceptsAuthType)
        #expect(r.host == CredentialHost("git.example.test:8443") && r.fields["path"] == "a=b")
        #expect(r.isSafeTransport)
        #expect(throws: KCAuthError.self) { try GitCredentialRequest(parsing: "protocol\n") }
    }

    @Test func aTokenGoesOnlyOverHTTPSOrToThisMachine() throws {
        func safe(_ text: String) throws -> Bool { try GitCredentialRequest(parsing: text).isSafeTransport }
        #expect(try safe("protocol=http\nhost=127.0.0.1:8080\n"))
        #expect(try !safe("protocol=http\nhost=localhost\n"), "a name may resolve anywhere")
        #expect(try !safe("protocol=http\nhost=127.evil.example.test\n"))
        #expect(try !safe("protocol=http\nhost=git.example.test\n"))
        #expect(try !safe("protocol=http\nhost=127.0.0.1.evil.test\n"))
        #expect(try !safe("protocol=ssh\nhost=git.example.test\n"))
        #expect(try !safe("host=git.example.test\n"))
    }

    @Test func answersPasswordOrBearerWithExpiry() {
        let plain = GitCredentialAnswer(username: "oauth2", token: "tok", expiresAt: Instant(epochSeconds: 1_763_733_789.7), bearer: false).text
        #expect(plain == "username=oauth2\npassword=tok\npassword_expiry_utc=1763733789\n")
        let bearer = GitCredentialAnswer(username: "oauth2", token: "tok", expiresAt: nil, bearer: true).text
        #expect(bearer == "capability[]=authtype\nauthtype=Bearer\ncredential=tok\nephemeral=1\n")
        #expect(!GitCredentialAnswer.isLineSafe("a\nhost=evil") && !GitCredentialAnswer.isLineSafe(""))
    }
}

@Suite struct CredentialTransportTests {
    @Test(arguments: ["127.0.0.1", "127.255.255.254", "127.0.0.0", "::1", "[::1]", "0:0:0:0:0:0:0:1", "[0::1]", "0000:0::0001"])
    func numericLoopbackAddressesAre(_ host: String) {
        #expect(CredentialTransport.isLoopbackAddress(host))
        #expect(CredentialTransport.allowsToken(scheme: "http", host: host))
    }

    @Test(arguments: ["localhost", "127.evil.example.test", "127.0.0.1.evil.test", "127.1", "127.0.0.01", "0177.0.0.1",
                      "127.0.0.256", "127.0.0.+1", "128.0.0.1", "::", "::2", "1::", "1::1", ":::1", "::1::", "::+1",
                      "::ffff:127.0.0.1", "0:0:0:0:0:0:0:0:1", "[::1", "", "12345::1"])
    func everythingElseIsNot(_ host: String) {
        #expect(!CredentialTransport.isLoopbackAddress(host))
        #expect(!CredentialTransport.allowsToken(scheme: "http", host: host))
        #expect(CredentialTransport.allowsToken(scheme: "https", host: host), "https goes anywhere a profile lists")
    }

    @Test func otherSchemesGetNothing() {
        #expect(!CredentialTransport.allowsToken(scheme: "ssh", host: "127.0.0.1"))
        #expect(!CredentialTransport.allowsToken(scheme: "", host: "127.0.0.1"))
        #expect(CredentialTransport.allowsToken(scheme: "HTTPS", host: "git.example.test"))
    }

    @Test func dockerServerURLsSayTheirSchemeAndDefaultToHTTPS() {
        #expect(DockerCredentialWire.scheme(ofServerURL: "registry.example.test:5000") == "https")
        #expect(DockerCredentialWire.scheme(ofServerURL: "HTTP://registry.example.test/v2/") == "http")
        #expect(DockerCredentialWire.scheme(ofServerURL: "https://index.docker.io/v1/\n") == "https")
    }
}

@Suite struct HostRoutingTests {
    @Test func hostsParseAndMatchWithOrWithoutAPort() {
        #expect(CredentialHost("Registry.Example.test:5000")?.description == "registry.example.test:5000")
        #expect(CredentialHost("[::1]:8080")?.isLoopback == true)
        for bad in ["", "a/b", "a b", "host:0", "host:99999", "host:x", "[::1", "user@host", "[zz]"] { #expect(CredentialHost(bad) == nil, "\(bad)") }
        let any = CredentialHost("git.example.test")!, exact = CredentialHost("git.example.test:8443")!
        #expect(CredentialHost("git.example.test:8443")!.isServed(by: any))
        #expect(CredentialHost("git.example.test:8443")!.isServed(by: exact))
        #expect(!CredentialHost("git.example.test:9000")!.isServed(by: exact))
        #expect(!CredentialHost("sub.git.example.test")!.isServed(by: any))
    }

    @Test func theFirstProfileListingTheHostServesIt() {
        // The one routing rule both programs use (KCAuthContract's HelperRule), with nothing picked.
        let profiles = [("a", [CredentialHost("x.test")!.rule]), ("b", [CredentialHost("y.test")!.rule, CredentialHost("x.test")!.rule])]
        #expect(HelperRule.profile(for: CredentialHost("y.test")!.rule, picked: nil, profiles: profiles) == "b")
        #expect(HelperRule.profile(for: CredentialHost("x.test")!.rule, picked: nil, profiles: profiles) == "a")
        #expect(HelperRule.profile(for: CredentialHost("z.test")!.rule, picked: nil, profiles: profiles) == nil)
    }

    @Test func profileSettingsReadHostsAndUsernameAndRejectBadOnes() throws {
        let doc = try ConfigDocument(parsing: "[p]\nhosts = a.test, b.test:5000\nusername = robot\n", path: "cfg")
        let s = try ProfileSettings(doc, profile: "p", path: "cfg")
        #expect(s.hosts == [CredentialHost("a.test")!, CredentialHost("b.test:5000")!] && s.username == "robot")
        let bad = try ConfigDocument(parsing: "[p]\nhosts = a.test https://b.test\n", path: "cfg")
        #expect(throws: KCAuthError.self) { try ProfileSettings(bad, profile: "p", path: "cfg") }
    }

    @Test func dockerServerURLsReduceToTheirHost() {
        #expect(DockerCredentialWire.host(ofServerURL: "https://registry.example.test/v1/") == CredentialHost("registry.example.test"))
        #expect(DockerCredentialWire.host(ofServerURL: " registry.example.test:5000\n") == CredentialHost("registry.example.test:5000"))
        #expect(DockerCredentialWire.host(ofServerURL: "user@registry.example.test") == nil)
        #expect(DockerCredentialWire.getAnswer(serverURL: "r.test", username: "u", secret: "s") == #"{"ServerURL":"r.test","Username":"u","Secret":"s"}"# + "\n")
    }
}

@Suite struct CurlAndExecTests {
    @Test func theCurlLineQuotesTheTokenAndRefusesControlCharacters() throws {
        #expect(try CurlConfig.header(bearer: "a.b-c_d") == "header = \"Authorization: Bearer a.b-c_d\"\n")
        #expect(try CurlConfig.header(bearer: #"a"b\c"#) == #"header = "Authorization: Bearer a\"b\\c""# + "\n")
        #expect(throws: KCAuthError.self) { try CurlConfig.header(bearer: "a\nurl = \"http://evil\"") }
    }
}
