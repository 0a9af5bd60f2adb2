import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthFastPath

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

        func answer(_ arguments: [String]) -> String? {
            FastTokenPath.answer(arguments: arguments, environment: { environment[$0] },
                                 read: { path, mustBePrivate in
                                     guard let text = files[path], !mustBePrivate || privateOnly.contains(path) else { return nil }
                                     return Array(text.utf8)
                                 }, now: now)
        }
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
        // kubectl names the version it wants: the full program answers in it.
        w.environment["KUBERNETES_EXEC_INFO"] = #"{"apiVersion":"client.authentication.k8s.io/v1beta1"}"#
        #expect(w.answer(["token", "-o", "exec-credential"]) == nil)
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
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
        Self.cache(clientID: "k\\u0063auth"), Self.cache() + "x",
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

    @Test func oneProfileAmongAHundredIsServedAndTheOthersAreCheckedForShapeOnly() {
        var w = World()
        let others = (1...100).filter { $0 != 57 }.map { "[p\($0)]\nissuer = x\nclient_id = y\ncolour = blue\ncolour = red\n" }
        w.files["/home/u/.config/kcauth/config"] = Self.config + others.joined() + "[p57]\nissuer = \(Self.issuer)\nclient_id = kcauth\n"
        w.files["/run/user/1000/kcauth/p57.token"] = Self.cache()
        w.privateOnly.insert("/run/user/1000/kcauth/p57.token")
        #expect(w.answer(["token", "--profile", "p57"]) == "eyJ.a-b_c.d\n")
        w.files["/home/u/.config/kcauth/config"]! += "[p3]\n"   // a duplicate section elsewhere: the full program rejects the file
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

/// FastTimestamp agrees with timegm/gmtime_r (what the full program's RFC3339 uses).
@Suite struct FastTimestampTests {
    @Test(arguments: ["1970-01-01T00:00:00Z", "2000-02-29T12:34:56Z", "2026-11-24T11:06:31Z", "2027-01-15T09:00:00Z",
                      "2100-03-01T00:00:00Z", "2026-02-31T00:00:00Z", "2038-01-19T03:14:08Z"])
    func parsesAsTimegmDoes(_ text: String) throws {
        let parsed = try #require(FastTimestamp.parse(text))
        var parts = tm()
        let b = Array(text.utf8)
        func n(_ from: Int, _ count: Int) -> Int32 { Int32(String(decoding: b[from..<(from + count)], as: UTF8.self))! }
        parts.tm_year = n(0, 4) - 1900; parts.tm_mon = n(5, 2) - 1; parts.tm_mday = n(8, 2)
        parts.tm_hour = n(11, 2); parts.tm_min = n(14, 2); parts.tm_sec = n(17, 2)
        #expect(parsed == Double(timegm(&parts)))
    }

    @Test func formatsWhatItParses() {
        #expect(FastTimestamp.format(FastTimestamp.parse("2026-11-24T11:06:31Z")!) == "2026-11-24T11:06:31Z")
        #expect(FastTimestamp.format(FastTimestamp.parse("2026-02-31T00:00:00Z")!) == "2026-03-03T00:00:00Z")
    }

    /// The digits are written by hand (docs/performance.md §4: peak RSS): the same text as
    /// strftime's, zero-padded fields, five-digit years included.
    @Test(arguments: [0.0, 59.9, 951_827_696, 1_800_000_000, 4_102_444_800, 253_402_300_799, 253_402_300_800, -1])
    func formatsAsStrftimeDoes(_ epoch: Double) {
        var t = time_t(epoch.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        let expected = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(FastTimestamp.format(epoch) == expected)
    }
}

/// Issue 10 #3: a cached token is bound to the session it came from; the fast path keeps the
/// same binding as the full program's `CacheBinding`.
@Suite struct FastTokenPathBindingTests {
    @Test func aCacheEntryOfAnotherStoreOrWithoutOneIsLeftToTheFullProgram() {
        var w = FastTokenPathTests.World()
        w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache().replacing("\"keyring\"", with: "\"file\"")
        #expect(w.answer(["token"]) == nil)
        w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache().replacing(",\"storage\":\"keyring\"", with: "")
        #expect(w.answer(["token"]) == nil, "an entry written by kcauth 0.1 is not bound to a session")
    }

    @Test func aSessionIDIsOptional() {
        var w = FastTokenPathTests.World()
        w.files["/run/user/1000/kcauth/default.token"] = FastTokenPathTests.cache().replacing(",\"session_id\":\"s-1\"", with: "")
        #expect(w.answer(["token"]) == "eyJ.a-b_c.d\n")
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

    @Test func anUnknownKeyStillGoesToTheFullProgram() {
        var w = FastTokenPathTests.World()
        w.files["/home/u/.config/kcauth/config"] = FastTokenPathTests.config + "frobnicate = yes\n"
        #expect(w.answer(["token"]) == nil)
    }
}
