import Testing
@testable import KCAuthCLI
import KCAuthCore

/// The CLI's words for the core's typed facts: remedies, problems and where a setting came from.
@Suite struct RemedyWordsTests {
    @Test func anErrorsOwnHintComesBeforeItsRemedy() {
        var error = KCAuthError(.timedOut, "no answer", remedy: .useFixedPort)
        #expect(ErrorPresenter.line(error) == "error: no answer; " + RemedyWords.fixedPortAfterTimeout)
        error.hint = "look elsewhere"
        #expect(ErrorPresenter.line(error) == "error: no answer; look elsewhere")
    }

    @Test func remediesNameTheCommandForTheProfile() {
        #expect(RemedyWords.text(.signInWithClientCredentials(profile: "ci"))
                == "run `kcauth login --profile ci --client-credentials` with the client's secret or key")
        #expect(RemedyWords.text(.signInAgain(profile: "default")) == "run `kcauth login` again")
        #expect(RemedyWords.text(.pushAuthorizationRequests).contains("--par always"))
        #expect(RemedyWords.text(.signInWithPAR([.auto, .never])) == "sign in with `--par auto` or `--par never`")
    }

    @Test func aRefusedAuthorizationNamesTheSettingsItPointsAt() {
        let keycloak = RefusedAuthorization(suspect: .clientID, clientID: "kcauthx", redirectURI: "http://127.0.0.1/callback",
                                            anyPortAccepted: true, fixedPortMayHelp: false)
        #expect(RemedyWords.text(.checkClientOrRedirectURI(keycloak))
                == "check --client-id 'kcauthx': it must be the id of a client registered at the provider")
        var redirect = keycloak
        redirect.suspect = .redirectURI
        #expect(RemedyWords.text(.checkClientOrRedirectURI(redirect)) == "check the redirect URIs the client allows at the provider: "
                + "they must include http://127.0.0.1/callback (without a port, any port is accepted)")
        #expect(!RemedyWords.text(.checkClientOrRedirectURI(redirect)).contains("--port"), "Keycloak takes any loopback port")
        var exact = redirect
        (exact.anyPortAccepted, exact.fixedPortMayHelp, exact.suspect) = (false, true, .either)
        let both = RemedyWords.text(.checkClientOrRedirectURI(exact))
        #expect(both.hasPrefix("check --client-id 'kcauthx': it must be the id of a client registered at the provider; and check the redirect URIs"))
        #expect(both.hasSuffix("register http://127.0.0.1:8400/callback and pass --port 8400"))
    }

    @Test func theKeyringsAdviceIsTheCLIsAndNamesEveryStoreThatNeedsNoKeyring() {
        let locked = KCAuthError(.storageLocked, "the keyring was not unlocked within 30 s", remedy: .unlockKeyring)
        #expect(ErrorPresenter.line(locked).hasPrefix("error: the keyring was not unlocked within 30 s; unlock it: "))
        #expect(ErrorPresenter.line(locked).contains("gnome-keyring-daemon --replace --unlock"))
        for remedy in [KCAuthError.Remedy.startKeyring, .createKeyringCollection, .installKeyring, .unlockKeyringOrChooseStore] {
            #expect(RemedyWords.text(remedy).hasSuffix(", or use a store that needs none: `kcauth login --storage encrypted` or `--storage file`"),
                    "kcauth never falls back to a file by itself: it names the stores that need no keyring")
        }
        #expect(RemedyWords.text(.openAddressYourself(fixCommand: true)).contains("--browser-command"))
        #expect(RemedyWords.text(.openAddressYourself(fixCommand: false)).contains("$BROWSER"))
    }

    @Test func anUnlockedStoreSaysHowLongInTheOneDurationFormat() {
        let now: Instant = 1_000_000
        let until: Instant = 1_001_796  // 29 min 56 s later
        #expect(StoreWords.state(.unlocked(until: until), now: now) == "unlocked until \(until.rfc3339) (in 29m 56s)")
        #expect(EncryptedStoreOptions.until(1_043_200, now: now).hasSuffix(" (in 12h 0m)"))
        #expect(SessionOutput.expiry(until, now: now) == "valid until \(until.rfc3339) (in 29m 56s)", "as the tokens' times")
    }

    @Test func aProblemIsPhrasedWithTheOption() {
        var error = KCAuthError(.invalidIDToken, "the ID token was rejected: the sign-in it describes is 36 s old, more than max_age 30")
        error.problem = .signInOlderThanMaxAge(age: 36, maxAge: 30)
        #expect(ErrorPresenter.line(error).hasPrefix("error: the ID token was rejected: the sign-in it describes is 36 s old, more than --max-age 30; "))
        #expect(error.with(message: "other").problem == nil, "a new message drops the fact the old one stated")
    }

    @Test func factsTheLibraryStatesNeutrallyGetTheCommandLinesWords() {
        var missing = KCAuthError(.usage, "the client-credentials grant needs the client's secret or key", remedy: .giveClientCredential)
        missing.problem = .noClientCredential
        #expect(MessageWords.message(missing) == "--client-credentials needs the client's secret or key")
        var forward = KCAuthError(.network, "the forwarded session did not take the request")
        forward.problem = .forwardNotTaken
        #expect(MessageWords.message(forward) == "the forwarded session did not take the request (is the laptop's `kcauth ssh` still running?)")
    }

    @Test func originsAreNamedAsThePersonGaveThem() {
        #expect(SettingOriginWords.name(.option("port")) == "--port")
        #expect(SettingOriginWords.name(.option("dpop")) == "--dpop-mode")
        #expect(SettingOriginWords.name(.option("grant")) == "--client-credentials")
        #expect(SettingOriginWords.name(.option("profile")) == "--profile")
        #expect(SettingOriginWords.name(.option("timeout")) == "--timeout")
        #expect(SettingOriginWords.name(.serverAndRealm) == "--server/--realm")
        #expect(SettingOriginWords.name(.environment("KCAUTH_CA_FILE")) == "KCAUTH_CA_FILE")
        #expect(SettingOriginWords.name(.file("ca_file")) == "ca_file")
    }
}
