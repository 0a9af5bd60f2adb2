import Testing
import KCAuthContract

/// `client_assertion_from`'s four forms, read and written back the same (the profile keeps the
/// text; the command's words survive any quoting).
@Suite struct AssertionSourceTests {
    @Test(arguments: [
        ("github-actions", AssertionSource.githubActions),
        ("env:CI_JOB_JWT", .environment("CI_JOB_JWT")),
        ("env:_id_1", .environment("_id_1")),
        ("file:/var/run/secrets/tokens/kcauth", .file("/var/run/secrets/tokens/kcauth")),
        ("command:get-token", .command(["get-token"])),
        ("command:/opt/bin/vault read -field=token 'secret/ci token'", .command(["/opt/bin/vault", "read", "-field=token", "secret/ci token"])),
    ])
    func eachFormReadsAndWritesBack(_ text: String, _ source: AssertionSource) throws {
        #expect(try AssertionSource.parse(text).get() == source)
        #expect(try AssertionSource.parse(source.text).get() == source)
    }

    @Test(arguments: [["a b", "it's", "", "$HOME", "x\"y", "tab\tin", "ü"]])
    func anyWordsSurviveTheRoundTrip(_ words: [String]) throws {
        let source = AssertionSource.command(["prog"] + words)
        #expect(try AssertionSource.parse(source.text).get() == source)
    }

    @Test(arguments: [
        ("github", AssertionSource.Refusal.unknownForm), ("GitHub-Actions", .unknownForm), ("", .unknownForm),
        ("env:", .badVariableName), ("env:1A", .badVariableName), ("env:A-B", .badVariableName),
        ("file:", .badPath), ("file:relative", .badPath), ("command:", .badCommand(.noProgram)), ("command:'x", .badCommand(.unterminatedSingleQuote)),
    ])
    func whatIsNotASourceIsRefused(_ text: String, _ refusal: AssertionSource.Refusal) {
        #expect(throws: refusal) { try AssertionSource.parse(text).get() }
    }

    @Test func aCommandLinesRelativePathIsTakenTheConfigurationFilesIsNot() throws {
        #expect(try AssertionSource.parse("file:token", absolutePath: false).get() == .file("token"))
        #expect(SettingCheck.clientAssertionSource.accepts("file:token", at: .environment))
        #expect(!SettingCheck.clientAssertionSource.accepts("file:token", at: .file))
        #expect(SettingCheck.clientAssertionType.accepts("spiffe", at: .file) && !SettingCheck.clientAssertionType.accepts("jwt", at: .file))
    }
}
