import KCAuthContract
import Testing

/// `kcauth prompt --format`: what each placeholder prints, what is refused, what a hostile user
/// name becomes.
@Suite struct PromptFormatTests {
    let valid = SessionGlance(state: .valid, expiresIn: 2_520, user: "alice@example.com")

    @Test func theDefaultIsTheProfileAndTheSummary() throws {
        let format = try #require(PromptFormat(PromptFormat.defaultText))
        #expect(format.render(profile: "work", valid) == "work 42m")
        #expect(format.render(profile: "work", SessionGlance(state: .valid)) == "work valid")
        #expect(format.render(profile: "work", SessionGlance(state: .refreshable)) == "work expired")
        #expect(format.render(profile: "work", SessionGlance(state: .loginRequired)) == "work login")
        #expect(format.render(profile: "work", SessionGlance(state: .locked)) == "work locked")
        #expect(format.render(profile: "work", SessionGlance(state: .unknown)) == "work ?")
    }

    @Test func everyPlaceholder() throws {
        let format = try #require(PromptFormat("{{{user}}} on {profile}: {state} {expires_in}|{summary} {{x}"))
        #expect(format.render(profile: "p", valid) == "{alice@example.com} on p: valid 42m|42m {x}")
        #expect(format.render(profile: "p", SessionGlance(state: .refreshable)) == "{} on p: refreshable |expired {x}")
        #expect(try #require(PromptFormat("")).render(profile: "p", valid) == "")
        #expect(try #require(PromptFormat("🔑 #[fg=green]%F{{x}} {profile} }")).render(profile: "p", valid) == "🔑 #[fg=green]%F{x} p }")
    }

    @Test(arguments: ["{", "{nope}", "x {profile", "{Profile}", "{ profile}", "{}"])
    func aBraceThatOpensNoPlaceholderIsRefused(_ text: String) {
        #expect(PromptFormat(text) == nil)
    }

    @Test func durationsInAtMostTwoUnits() {
        let cases: [(Int64, String)] = [(-5, "0s"), (0, "0s"), (59, "59s"), (60, "1m"), (3_599, "59m"), (3_600, "1h"), (3_659, "1h"),
                                        (3_660, "1h1m"), (11_520, "3h12m"), (86_399, "23h59m"), (86_400, "1d"), (190_800, "2d5h"),
                                        (Int64.max, "106751991167300d15h")]
        for (seconds, text) in cases { #expect(PromptFormat.duration(seconds) == text) }
    }

    /// The user name comes from the provider: nothing in it may act in a shell, zsh's prompt or tmux.
    @Test func aHostileUserNameIsShownInert() {
        #expect(PromptFormat.safeUser("alice.b_c+d-e@example.com") == "alice.b_c+d-e@example.com")
        #expect(PromptFormat.safeUser("$(rm -rf ~)`x`%F{red}#[fg=red]\\\u{1b}[31m\n") == "??rm?-rf????x??F?red???fg?red????31m?")
        #expect(PromptFormat.safeUser("José Ünï") == "Jos???n?")
        #expect(PromptFormat.safeUser(String(repeating: "a", count: 100)).utf8.count == 64)
    }
}
