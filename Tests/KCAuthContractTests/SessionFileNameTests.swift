import KCAuthContract
import Testing

/// The names of a stored session's files in the shared directory: the profile for people, then a
/// digest of store, issuer and client id, so a profile name of another configuration is another
/// session.
@Suite struct SessionFileNameTests {
    let issuer = "https://sso.example.com/realms/demo"

    @Test func theProfileThenSixteenHexDigitsOfStoreIssuerAndClient() {
        // FNV-1a 64 of "keyring\0https://sso.example.com/realms/demo\0cli", worked out apart.
        #expect(SessionFileName.stem(profile: "work", storage: "keyring", issuer: issuer, clientID: "cli") == "work.b2c8c7986dc57db4")
    }

    @Test func anotherStoreIssuerOrClientIsAnotherName() {
        let names = [
            SessionFileName.stem(profile: "default", storage: "keyring", issuer: issuer, clientID: "cli"),
            SessionFileName.stem(profile: "default", storage: "file", issuer: issuer, clientID: "cli"),
            SessionFileName.stem(profile: "default", storage: "keyring", issuer: "http://127.0.0.1:8180/realms/demo", clientID: "cli"),
            SessionFileName.stem(profile: "default", storage: "keyring", issuer: issuer, clientID: "cli2"),
            // The parts are kept apart: moving a character from one to the next is another session.
            SessionFileName.stem(profile: "default", storage: "keyring", issuer: issuer + "c", clientID: "li"),
            SessionFileName.stem(profile: "default", storage: "keyringh", issuer: "ttps://sso.example.com/realms/demo", clientID: "cli"),
        ]
        #expect(Set(names).count == names.count, "\(names)")
        for name in names {
            #expect(name.hasPrefix("default."), "the profile stays readable")
            #expect(name.utf8.count == "default.".utf8.count + 16)
            #expect(name.dropFirst("default.".count).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        #expect(SessionFileName.stem(profile: "default", storage: "keyring", issuer: issuer, clientID: "cli") == names[0], "stable")
    }

    @Test func aSessionsMarkAndLocksShareItsName() throws {
        let binding = CachePolicy.Binding(storage: "keyring", issuer: issuer, clientID: "cli")
        let stem = SessionFileName.stem(profile: "work", storage: "keyring", issuer: issuer, clientID: "cli")
        #expect(SessionMark.file(profile: "work", binding: binding, directory: "/d") == "/d/" + stem + ".session")
        let suffixes = [SessionFileName.mark, SessionFileName.refreshLock, SessionFileName.signInLock]
        #expect(Set(suffixes).count == 3)
        #expect(SessionFileName.refreshLock.hasSuffix(".lock") && SessionFileName.signInLock.hasSuffix(".lock"))
    }
}
