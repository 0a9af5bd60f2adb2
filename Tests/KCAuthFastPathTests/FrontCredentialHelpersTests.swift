import KCAuthContract
import Testing
@testable import KCAuthFastPath

/// The git and docker helpers' `get` as the front answers it, over injected files.
@Suite struct FrontCredentialHelpersTests {
    static let config = FastTokenPathTests.config + "hosts = git.example.com registry.example.com:5000\n"

    func world() -> FastTokenPathTests.World {
        var w = FastTokenPathTests.World()
        w.files["/home/u/.config/kcauth/config"] = Self.config
        return w
    }

    func git(_ w: FastTokenPathTests.World, _ input: String, profile: String? = nil) -> String? {
        var arguments = ["git-credential", "get"]
        if let profile { arguments += ["--profile", profile] }
        return FrontCredentialHelpers.git(FrontCredentialHelpers.Request(arguments)!, input: Array(input.utf8),
                                          environment: { w.environment[$0] }, read: w.read, mark: { p, _ in w.marks[p] }, now: w.now)
    }

    func docker(_ w: FastTokenPathTests.World, _ input: String) -> String? {
        let profiles = FrontCredentialHelpers.profiles({ w.environment[$0] }, read: w.read)
        return profiles.flatMap {
            FrontCredentialHelpers.docker(FrontCredentialHelpers.Request(["docker-credential", "get"])!, input: Array(input.utf8), profiles: $0,
                                          environment: { w.environment[$0] }, read: w.read, mark: { p, _ in w.marks[p] }, now: w.now)
        }
    }

    @Test func gitGetsTheTokenForAListedHost() {
        #expect(git(world(), "protocol=https\nhost=git.example.com\n\n") == "username=oauth2\npassword=eyJ.a-b_c.d\npassword_expiry_utc=1800003600\n")
        #expect(git(world(), "capability[]=authtype\nprotocol=https\nhost=git.example.com\nusername=me\n\n")
            == "capability[]=authtype\nauthtype=Bearer\ncredential=eyJ.a-b_c.d\nephemeral=1\npassword_expiry_utc=1800003600\n")
        #expect(git(world(), "protocol=https\nhost=git.example.com\nusername=me\n\n")?.hasPrefix("username=me\n") == true)
    }

    @Test(arguments: ["protocol=https\nhost=other.example.com\n\n", "protocol=http\nhost=git.example.com\n\n",
                      "protocol=http\nhost=127.evil.example.com\n\n", "protocol=https\nhost=git.example.com\nno equals\n\n",
                      "host=git.example.com\n\n", "protocol=https\nhost=git.example.com\nusername=\u{e9}\n\n"])
    func anythingElseIsTheFullProgramsToAnswer(_ input: String) {
        #expect(git(world(), input) == nil)
    }

    @Test func aPickedProfileNarrowsAndNeverWidens() {
        var w = world()
        w.files["/home/u/.config/kcauth/config"]! += "[work]\nissuer = https://x.example.com\nclient_id = c\nhosts = other.example.com\n"
        #expect(git(w, "protocol=https\nhost=other.example.com\n\n", profile: "default") == nil)
        #expect(git(w, "protocol=https\nhost=git.example.com\n\n", profile: "work") == nil)
        #expect(git(w, "protocol=https\nhost=git.example.com\n\n", profile: "default") != nil)
        w.environment["KCAUTH_PROFILE"] = "work"
        #expect(git(w, "protocol=https\nhost=git.example.com\n\n") == nil)
    }

    @Test func aBrokenProfileAnywhereIsTheFullProgramsToReport() {
        var w = world()
        w.files["/home/u/.config/kcauth/config"]! += "[work]\nflow = sideways\n"
        #expect(git(w, "protocol=https\nhost=git.example.com\n\n") == nil)
        #expect(docker(w, "registry.example.com:5000") == nil)
    }

    @Test func dockerGetsTheTokenForAListedRegistry() {
        #expect(docker(world(), "https://registry.example.com:5000\n")
            == "{\"ServerURL\":\"https://registry.example.com:5000\",\"Username\":\"oauth2\",\"Secret\":\"eyJ.a-b_c.d\"}\n")
        #expect(docker(world(), "registry.example.com:5000") != nil)
        #expect(docker(world(), "http://registry.example.com:5000") == nil)
        #expect(docker(world(), "registry.example.com") == nil)
        #expect(docker(world(), "user@registry.example.com:5000") == nil)
    }

    @Test(arguments: [["git-credential", "store"], ["git-credential"], ["git-credential", "get", "extra"], ["docker-credential", "list"],
                      ["git-credential", "get", "--profile", "../x"], ["git-credential", "get", "--verbose"]])
    func onlyAPlainGetIsServed(_ arguments: [String]) {
        #expect(FrontCredentialHelpers.Request(arguments) == nil)
    }
}

@Suite struct FrontExecTests {
    @Test func theCommandLinesItServes() {
        #expect(FrontExec.Request(["exec", "--", "env"])?.variables == ["KCAUTH_ACCESS_TOKEN"])
        #expect(FrontExec.Request(["exec", "--profile", "work", "--env", "A", "--env=B", "--", "env", "-0"])
            == { var r = FrontExec.Request(["exec", "--", "env", "-0"])!; r.profileFlag = "work"; r.variables = ["A", "B"]; return r }())
    }

    @Test(arguments: [["exec"], ["exec", "--"], ["exec", "env"], ["exec", "--env", "PATH", "--", "env"], ["exec", "--env", "LD_PRELOAD", "--", "env"],
                      ["exec", "--env", "A=id", "--", "env"], ["exec", "--min-valid", "60", "--", "env"], ["exec", "--env", "1A", "--", "env"]])
    func anyOtherIsTheFullPrograms(_ arguments: [String]) {
        #expect(FrontExec.Request(arguments) == nil)
    }
}
