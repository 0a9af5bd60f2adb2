import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthFastPath
import KCAuthContract

/// When the fast path serves `kcauth token`, and every case in which it must leave the decision
/// to the full program (nil). Files, environment and time are injected: no process, no clock.
@Suite struct FastTokenPathTests {
    static let now = 1_800_000_000.0                  // 2027-01-15T08:00:00Z
    static let issuer = "http://127.0.0.1:8180/realms/demo"
    static let config = "[default]\nissuer = \(issuer)\nclient_id = kcauth\nscope = openid profile email\n"

    static func cache(expiresAt: String = "2027-01-15T09:00:00Z", issuer: String = "http:\\/\\/127.0.0.1:8180\\/realms\\/demo",
                      clientID: String = "kcauth", extra: String = "") -> String {
        // As JSONEncoder writes it: slashes escaped, keys in no particular order.
        "{\"expires_at\":\"\(expiresAt)\",\"token_type\":\"Bearer\",\"access_token\":\"eyJ.a-b_c.d\",\"scope\":\"openid profile email\","
            + "\"issuer\":\"\(issuer)\"\(extra),\"client_id\":\"\(clientID)\",\"storage\":\"keyring\",\"session_id\":\"s-1\"}"
    }

    struct World {
        var environment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000"]
        var files: [String: String] = ["/home/u/.config/kcauth/config": FastTokenPathTests.config,
                                       "/run/user/1000/kcauth": "",
                                       "/run/user/1000/kcauth/default.token": FastTokenPathTests.cache()]
        var privateOnly: Set<String> = ["/run/user/1000/kcauth", "/run/user/1000/kcauth/default.token"]
        var now = FastTokenPathTests.now
        /// The profiles' session marks (KCAuthContract's SessionMark), by uid in the real world.
        var marks: [String: SessionMark.State] = ["default": .current("s-1"), "work": .current("s-1"), "p57": .current("s-1")]
        /// The working directory's `.kcauth-profile` (KCAuthContract's DirectoryProfile).
        var directory = DirectoryProfile.Finding.none

        func read(_ path: String, _ rule: FileRule) -> ContractFile.Outcome {
            guard let text = files[path] else { return .absent }
            if rule == .secret, !privateOnly.contains(path) { return .refused(path: path, .accessibleToOthers(mode: 0o644)) }
            return .bytes(Array(text.utf8))
        }

        func answer(_ arguments: [String]) -> String? {
            FastTokenPath.answer(arguments: arguments, environment: { environment[$0] }, read: read, mark: { p, _ in marks[p] }, now: now,
                                 directoryProfile: { directory })
        }
    }

    @Test func theDirectoryFileComesAfterTheFlagAndTheEnvironment() {
        var w = World()
        w.files["/home/u/.config/kcauth/config"] = FastTokenPathTests.config + "\n[work]\nissuer = \(FastTokenPathTests.issuer)\nclient_id = kcauth\n"
        w.files["/run/user/1000/kcauth/work.token"] = FastTokenPathTests.cache().replacingAll("eyJ.a-b_c.d", "eyJ.w-o_r.k")
        w.privateOnly.insert("/run/user/1000/kcauth/work.token")
        w.directory = .named("work", path: "/src/.kcauth-profile")
        #expect(w.answer(["token"]) == "eyJ.w-o_r.k\n")
        #expect(w.answer(["token", "--profile", "default"]) == "eyJ.a-b_c.d\n")
        w.environment["KCAUTH_PROFILE"] = "default"
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
    }

    @Test func aDirectoryFileToWarnAboutOrWithoutASectionHandsOff() {
        var w = World()
        w.directory = .ignored(path: "/src/.kcauth-profile", .refused(.writableByOthers(mode: 0o666)))
        #expect(w.answer(["token"]) == nil)
        #expect(w.answer(["token", "--profile", "default"]) == "eyJ.a-b_c.d\n", "not looked at when the flag decides")
        w.directory = .named("elsewhere", path: "/src/.kcauth-profile")
        #expect(w.answer(["token"]) == nil, "the full program warns and falls back")
    }

    @Test func aGlobalSignInNotificationKeyDoesNotStopTheFront() {
        var w = World()
        w.files["/home/u/.config/kcauth/config"] = "sign_in_notification = off\n" + FastTokenPathTests.config
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
        w.files["/home/u/.config/kcauth/config"] = "unknown_global = 1\n" + FastTokenPathTests.config
        #expect(w.answer(["token"]) == nil)
    }

    @Test func servesTheCachedAccessTokenOfTheDefaultProfile() {
        #expect(World().answer(["token"]) == "eyJ.a-b_c.d\n")
        #expect(World().answer(["token", "-o", "header"]) == "Authorization: Bearer eyJ.a-b_c.d\n")
        #expect(World().answer(["token", "--output=raw", "--profile", "default"]) == "eyJ.a-b_c.d\n")
    }

    @Test func rendersEveryFormatAsTheFullProgramDoes() {
        let w = World()
        #expect(w.answer(["token", "-o", "env"]) == "export KCAUTH_ACCESS_TOKEN='eyJ.a-b_c.d'\nexport KCAUTH_EXPIRES_AT=2027-01-15T09:00:00Z\n")
        #expect(w.answer(["token", "-o", "json"]) == """
            {
              "version": 1,
              "access_token": "eyJ.a-b_c.d",
              "token_type": "Bearer",
              "expires_at": "2027-01-15T09:00:00Z",
              "expires_in": 3600,
              "scope": "openid profile email",
              "issuer": "http://127.0.0.1:8180/realms/demo",
              "profile": "default"
            }

            """)
        #expect(w.answer(["token", "-o", "exec-credential"]) == "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"eyJ.a-b_c.d\",\"expirationTimestamp\":\"2027-01-15T09:00:00Z\"}}\n")
    }

    @Test func curlAndKubectlsExecCredential() {
        var w = World()
        #expect(w.answer(["token", "-o", "curl"]) == "header = \"Authorization: Bearer eyJ.a-b_c.d\"\n")
        // kubectl names the version it wants: the answer is in it, as the full program's.
        w.environment["KUBERNETES_EXEC_INFO"] = #"{"apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":true}}"#
        #expect(w.answer(["token", "-o", "exec-credential"])?.hasPrefix(#"{"apiVersion":"client.authentication.k8s.io/v1beta1","#) == true)
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
        // One the full program refuses (whatever the format) is left to it.
        for bad in ["{", "[]", #"{"kind":"ExecCredential"}"#, #"{"apiVersion":"client.authentication.k8s.io/v2"}"#] {
            w.environment["KUBERNETES_EXEC_INFO"] = bad
            #expect(w.answer(["token"]) == nil)
            #expect(w.answer(["token", "-o", "exec-credential"]) == nil)
        }
    }

    @Test(arguments: [
        ["token", "--min-valid", "60"], ["token", "--id-token"], ["token", "--help"], ["token", "-h"], ["token", "-o", "yaml"],
        ["token", "-ojson"], ["token", "--profile", "a", "--profile", "b"], ["token", "-o", "raw", "--output", "json"],
        ["token", "--profile"], ["token", "--profile="], ["token", "extra"], ["refresh"], ["whoami"], [], ["--version"],
    ])
    func anyOtherCommandLineGoesToTheFullProgram(_ arguments: [String]) {
        #expect(World().answer(arguments) == nil)
    }

    @Test(arguments: [
        ("KCAUTH_TOKEN_CACHE", "off"), ("KCAUTH_TOKEN_CACHE", "on"), ("KCAUTH_STORAGE", "file"), ("KCAUTH_STORAGE", "memory"),
        ("KCAUTH_STORAGE", "keyring"), ("XDG_RUNTIME_DIR", "run/user/1000"),
    ])
    func anEnvironmentThatChangesTheDecisionGoesToTheFullProgram(_ name: String, _ value: String) {
        var w = World()
        w.environment[name] = value
        #expect(w.answer(["token"]) == nil)
    }

    @Test func noRuntimeDirectoryOrNoConfigurationLocationGoesToTheFullProgram() {
        var w = World()
        w.environment["XDG_RUNTIME_DIR"] = nil
        #expect(w.answer(["token"]) == nil)
        w = World()
        w.environment["HOME"] = nil
        #expect(w.answer(["token"]) == nil)
        w.environment["XDG_CONFIG_HOME"] = "/home/u/.config"
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
    }

    @Test(arguments: [
        ("2027-01-15T08:00:29Z", false), ("2027-01-15T08:00:30Z", true), ("2027-01-15T07:59:00Z", false),
        ("2027-01-15T09:00:00+00:00", false), ("2027-01-15T09:00:00.5Z", false), ("2027-13-15T09:00:00Z", false), ("soon", false),
    ])
    func servesOnlyATokenValidForAtLeastThirtySecondsInTheExactFormKcauthWrites(_ expiresAt: String, _ served: Bool) {
        var w = World()
        w.files["/run/user/1000/kcauth/default.token"] = Self.cache(expiresAt: expiresAt)
        #expect((w.answer(["token"]) != nil) == served)
    }

    @Test(arguments: [
        "", "[]", "{}", Self.cache(extra: ",\"session_id\":\"s1\""), Self.cache(extra: ",\"expires_at\":\"2027-01-15T09:00:00Z\""),
        Self.cache(extra: ",\"n\":1"), Self.cache(clientID: "other"), Self.cache(issuer: "https:\\/\\/other"),
        Self.cache(clientID: "k\\u0063aut"), Self.cache() + "x",
        "{\"access_token\":\"\",\"token_type\":\"Bearer\",\"expires_at\":\"2027-01-15T09:00:00Z\",\"scope\":\"\",\"issuer\":\"\(issuer)\",\"client_id\":\"kcauth\"}",
    ])
    func aCacheFileItDoesNotFullyUnderstandOrThatBelongsToOtherSettingsGoesToTheFullProgram(_ cache: String) {
        var w = World()
        w.files["/run/user/1000/kcauth/default.token"] = cache
        #expect(w.answer(["token"]) == nil)
    }

    @Test func aCacheFileOrDirectoryThatIsNotPrivateOrMissingGoesToTheFullProgram() {
        var w = World()
        w.privateOnly.remove("/run/user/1000/kcauth/default.token")
        #expect(w.answer(["token"]) == nil)
        w = World()
        w.privateOnly.remove("/run/user/1000/kcauth")
        #expect(w.answer(["token"]) == nil)
        w = World()
        w.files["/run/user/1000/kcauth/default.token"] = nil
        #expect(w.answer(["token"]) == nil)
    }

    @Test(arguments: [
        "storage = file", "storage = memory", "storage = Keyring", "flow = sideways", "port = 70000", "port = +80", "port = x",
        "colour = blue", "issuer = again", "not a setting",
    ])
    func aProfileSettingTheFullProgramWouldActOnOrRejectGoesToTheFullProgram(_ line: String) {
        var w = World()
        w.files["/home/u/.config/kcauth/config"] = Self.config + line + "\n"
        #expect(w.answer(["token"]) == nil)
    }

    @Test(arguments: ["storage = keyring", "flow = device", "flow = auto", "port = 8400", "ca_file = /etc/ca.pem", "# a comment", "; another", "  "])
    func settingsThatDoNotChangeTokenAreServed(_ line: String) {
        var w = World()
        w.files["/home/u/.config/kcauth/config"] = Self.config + line + "\n"
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
    }

    @Test(arguments: [
        "[default]\nissuer = x\n", "other = 1\n" + config, config + "[default]\n", config + "[bad name]\n", config + "[.hidden]\n",
        config + "[work\n", "default_profile = -x\n" + config, config + "k\u{e9}y = 1\n", config + "name = caf\u{e9}\n",
        config + "a\u{7}b = 1\n", "[default]\nclient_id = kcauth\n",
        // A tab inside a value, in any section (found by the front-config differential fuzz target).
        config + "scope = a\tb\n", config + "[other]\nissuer = a\tb\n",
    ])
    func aConfigurationFileItDoesNotFullyUnderstandGoesToTheFullProgram(_ config: String) {
        var w = World()
        w.files["/home/u/.config/kcauth/config"] = config
        #expect(w.answer(["token"]) == nil)
    }

    @Test func theProfileIsTheFlagElseTheVariableElseDefaultProfileElseDefault() {
        var w = World()
        w.files["/home/u/.config/kcauth/config"] = "default_profile = work\n" + Self.config + "[work]\nissuer = \(Self.issuer)\nclient_id = kcauth\n"
        w.files["/run/user/1000/kcauth/work.token"] = Self.cache().replacingOccurrences("eyJ.a-b_c.d", "work.token")
        w.privateOnly.insert("/run/user/1000/kcauth/work.token")
        #expect(w.answer(["token"]) == "work.token\n")
        #expect(w.answer(["token", "--profile", "default"]) == "eyJ.a-b_c.d\n")
        w.environment["KCAUTH_PROFILE"] = "default"
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
        #expect(w.answer(["token", "--profile=work", "-o", "json"])?.hasSuffix("\"profile\": \"work\"\n}\n") == true)
        w.environment["KCAUTH_PROFILE"] = ""
        #expect(w.answer(["token"]) == "work.token\n")
        #expect(w.answer(["token", "--profile", "../default"]) == nil)
        #expect(w.answer(["token", "--profile", "nosection"]) == nil)
    }

    @Test func anEmptyDefaultProfileMeansDefault() {
        var w = World()
        w.files["/home/u/.config/kcauth/config"] = "default_profile =\n" + Self.config
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
    }

    @Test func oneProfileAmongAHundredIsServedAndTheOthersAreCheckedForShapeAndKnownKeysOnly() {
        var w = World()
        let others = (1...100).filter { $0 != 57 }.map { "[p\($0)]\nissuer = x\nclient_id = y\nscope = a\nscope = b\n" }
        let config = Self.config + others.joined() + "[p57]\nissuer = \(Self.issuer)\nclient_id = kcauth\n"
        w.files["/home/u/.config/kcauth/config"] = config
        w.files["/run/user/1000/kcauth/p57.token"] = Self.cache()
        w.privateOnly.insert("/run/user/1000/kcauth/p57.token")
        #expect(w.answer(["token", "--profile", "p57"]) == "eyJ.a-b_c.d\n")
        w.files["/home/u/.config/kcauth/config"]! += "[p3]\n"   // a duplicate section elsewhere: the full program rejects the file
        #expect(w.answer(["token", "--profile", "p57"]) == nil)
        // A key of no catalogue row in another profile: the full program warns of it on every use.
        w.files["/home/u/.config/kcauth/config"] = config.replacingOccurrences("[p3]\n", "[p3]\ncolour = blue\n")
        #expect(w.answer(["token", "--profile", "p57"]) == nil)
    }

    @Test func aQuoteInTheTokenIsShellQuotedAsTheFullProgramDoes() {
        var w = World()
        w.files["/run/user/1000/kcauth/default.token"] = Self.cache().replacingOccurrences("eyJ.a-b_c.d", "it's")
        #expect(w.answer(["token", "-o", "env"]) == "export KCAUTH_ACCESS_TOKEN='it'\\''s'\nexport KCAUTH_EXPIRES_AT=2027-01-15T09:00:00Z\n")
    }

    @Test func aJSONFormatWhoseStringsWouldNeedEscapingGoesToTheFullProgram() {
        var w = World()
        w.files["/run/user/1000/kcauth/default.token"] = Self.cache().replacingOccurrences("\"openid profile email\"", "\"a\\\\b\"")
        #expect(w.answer(["token", "-o", "json"]) == nil)
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var parts: [Substring] = []
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts.joined(separator: replacement)
    }
}

/// A cached token is bound to the session it came from; the fast path keeps the
/// same binding as the full program's `CacheBinding`.
@Suite struct FastTokenPathBindingTests {
    @Test func aCacheEntryOfAnotherStoreOrWithoutOneIsLeftToTheFullProgram() {
        var w = FastTokenPathTests.World()
        w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache().replacing("\"keyring\"", with: "\"file\"")
        #expect(w.answer(["token"]) == nil)
        w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache().replacing(",\"storage\":\"keyring\"", with: "")
        #expect(w.answer(["token"]) == nil, "an entry written by kcauth 0.1 is not bound to a session")
    }

    /// A cached token is served only while its session is the profile's current one
    /// in every environment (the session mark, by uid): not after a logout or a new sign-in run
    /// from another environment, nor without a session id to check.
    @Test func aLoggedOutOrReplacedSessionIsNeverServed() {
        var w = FastTokenPathTests.World()
        w.marks["default"] = .ended("s-1")
        #expect(w.answer(["token"]) == nil)
        w.marks["default"] = .current("s-2")
        #expect(w.answer(["token"]) == nil)
        w.marks["default"] = nil
        #expect(w.answer(["token"]) == nil)
        w = FastTokenPathTests.World()
        w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache().replacing(",\"session_id\":\"s-1\"", with: "")
        #expect(w.answer(["token"]) == nil)
    }
}

/// Settings of other commands do not keep the fast path from serving the profile's token.
@Suite struct FastTokenPathSettingsTests {
    @Test(arguments: ["browser_command = firefox --private-window %s", "hosts = git.example.com", "username = oauth2",
                      "idp_hint = github", "acr_values = gold", "ui_locales = de", "grant = client_credentials",
                      "client_secret_env = KCAUTH_CLIENT_SECRET", "client_key = /k.pem"])
    func aProfileWithOtherSettingsIsStillServed(_ line: String) {
        var w = FastTokenPathTests.World()
        w.files["/home/u/.config/kcauth/config"] = FastTokenPathTests.config + line + "\n"
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
    }

    /// Front and full give one answer: with a warm cache, values the full program refuses are left
    /// to it (which then says what is wrong), whether they come from the file or the environment.
    @Test(arguments: ["grant = bogus", "hosts = ftp://x", "client_auth_method = nonsense", "browser_command = 'open",
                      "username = ", "client_secret_env = A\nclient_key = /k.pem", "ca_file = relative.pem"])
    func aValueTheFullProgramRefusesGoesToIt(_ lines: String) {
        var w = FastTokenPathTests.World()
        w.files["/home/u/.config/kcauth/config"] = FastTokenPathTests.config + lines + "\n"
        #expect(w.answer(["token"]) == nil)
    }

    @Test(arguments: [("KCAUTH_FLOW", "sideways"), ("KCAUTH_ISSUER", "not-a-url"), ("KCAUTH_ISSUER", FastTokenPathTests.issuer),
                      ("KCAUTH_CLIENT_ID", "kcauth"), ("KCAUTH_CA_FILE", "relative.pem"), ("KCAUTH_CA_FILE", "/a\u{1}b"),
                      ("KCAUTH_PROFILE", "../x")])
    func anEnvironmentValueTheFullProgramRefusesOrThatBindsTheCacheGoesToIt(_ name: String, _ value: String) {
        var w = FastTokenPathTests.World()
        w.environment[name] = value
        #expect(w.answer(["token"]) == nil)
    }

    @Test func bothClientCredentialsInTheEnvironmentGoToTheFullProgram() {
        var w = FastTokenPathTests.World()
        w.environment["KCAUTH_CLIENT_SECRET"] = "s"
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
        w.environment["KCAUTH_CLIENT_ASSERTION"] = "a"
        #expect(w.answer(["token"]) == nil)
    }

    @Test(arguments: [("KCAUTH_FLOW", "Browser"), ("KCAUTH_CA_FILE", "/etc/ca.pem")])
    func anEnvironmentValueTheFullProgramAcceptsIsServed(_ name: String, _ value: String) {
        var w = FastTokenPathTests.World()
        w.environment[name] = value
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
    }

    @Test func anUnknownKeyStillGoesToTheFullProgram() {
        var w = FastTokenPathTests.World()
        w.files["/home/u/.config/kcauth/config"] = FastTokenPathTests.config + "frobnicate = yes\n"
        #expect(w.answer(["token"]) == nil)
    }
}

private extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
