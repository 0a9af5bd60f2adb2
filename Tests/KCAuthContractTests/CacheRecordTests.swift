import KCAuthContract
import Testing

@Suite struct CacheRecordTests {
    let record = CacheRecord(accessToken: "eyJ.a.b", tokenType: "Bearer", expiresAt: 1_800_000_000.7, scope: "openid email",
                             issuer: "https://sso.example.com/realms/r", clientID: "cli", storage: "keyring", sessionID: "s-1")

    @Test func writtenRecordsReadBack() throws {
        let back = try #require(CacheRecord(record.encoded()))
        #expect(back.expiresAt == 1_800_000_000)
        #expect(back == record)
    }

    @Test func everyStringSurvivesTheWriter() throws {
        for text in ["quote \" and \\ back", "tab\tnew\nline\u{7F}", "ünïcödé ✓ 𝄞", ""] {
            var r = record
            r.scope = text
            #expect(CacheRecord(r.encoded())?.scope == text)
        }
    }

    @Test func aRecordWithoutExpiryOrSessionReadsBack() {
        var r = record
        r.expiresAt = nil
        r.sessionID = nil
        #expect(CacheRecord(r.encoded()) == r)
    }

    @Test(arguments: [
        #"{"access_token":"a","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring","extra":"x"}"#,
        #"{"access_token":"a","access_token":"b","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring"}"#,
        #"{"access_token":"a","token_type":"Bearer","scope":"","issuer":"i","client_id":"c"}"#,
        #"{"access_token":"a","token_type":"Bearer","expires_at":"2026-13-01T00:00:00Z","scope":"","issuer":"i","client_id":"c","storage":"keyring"}"#,
        #"{"access_token":1,"token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring"}"#,
        #"{"access_token":"\ud800","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring"}"#,
        #"{"access_token":"a","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring"} x"#,
    ])
    func anythingElseIsAMiss(_ text: String) {
        #expect(CacheRecord(Array(text.utf8)) == nil)
    }

    /// Caches written by the previous release (Foundation's JSONEncoder: `\/` escapes) still read.
    @Test func theFormerEncodersFilesRead() {
        let old = #"{"access_token":"a.b.c","token_type":"Bearer","expires_at":"2026-11-24T11:06:31Z","scope":"openid","issuer":"https:\/\/sso.example.com\/realms\/r","client_id":"cli","storage":"keyring","session_id":"s"}"#
        #expect(CacheRecord(Array(old.utf8))?.issuer == "https://sso.example.com/realms/r")
    }
}

/// What `kcauth prompt` needs of a record: who, and whether the session renews without a person.
@Suite struct CacheRecordRenewalTests {
    let record = CacheRecord(accessToken: "eyJ.a.b", tokenType: "Bearer", expiresAt: 1_800_000_000, scope: "openid",
                             issuer: "https://sso.example.com/realms/r", clientID: "cli", storage: "keyring", sessionID: "s-1",
                             user: "alice", renewal: .refreshToken, renewalExpiresAt: 1_800_003_600.5)

    @Test func theNewFieldsReadBack() throws {
        let back = try #require(CacheRecord(record.encoded()))
        #expect(back == record)
        #expect(back.user == "alice" && back.renewal == .refreshToken && back.renewalExpiresAt == 1_800_003_600)
        for renewal in SessionRenewal.allCases {
            var r = record
            r.renewal = renewal
            #expect(CacheRecord(r.encoded())?.renewal == renewal)
        }
    }

    /// The writer's keys, in its order: what a reader of this release expects.
    @Test func theWriterPutsThemLast() {
        let text = String(decoding: record.encoded(), as: UTF8.self)
        #expect(text.hasSuffix(#","session_id":"s-1","user":"alice","renewal":"refresh_token","renewal_expires_at":"2027-01-15T09:00:00Z"}"#))
    }

    /// Records of the previous release (no user, no renewal) still read, with nothing known of them.
    @Test func olderRecordsStillRead() throws {
        let old = #"{"access_token":"a.b.c","token_type":"Bearer","expires_at":"2026-11-24T11:06:31Z","scope":"openid","issuer":"i","client_id":"cli","storage":"keyring","session_id":"s"}"#
        let back = try #require(CacheRecord(Array(old.utf8)))
        #expect(back.user == nil && back.renewal == nil && back.renewalExpiresAt == nil)
    }

    @Test(arguments: [
        #"{"access_token":"a","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring","renewal":"forever"}"#,
        #"{"access_token":"a","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring","renewal_expires_at":"soon"}"#,
        #"{"access_token":"a","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring","user":1}"#,
        #"{"access_token":"a","token_type":"Bearer","scope":"","issuer":"i","client_id":"c","storage":"keyring","user":"a","user":"b"}"#,
    ])
    func aBadNewFieldIsAMiss(_ text: String) {
        #expect(CacheRecord(Array(text.utf8)) == nil)
    }
}
