import Testing
@testable import KCAuthCLI
import KCAuthTestSupport

/// Help is generated from the command table; these pin down that it stays complete and tidy.
@Suite struct HelpTests {
    static var allHelp: [String] { [HelpText.general()] + CommandTable.commands.map(HelpText.command) }

    @Test func everyLineFitsIn80Columns() {
        for text in Self.allHelp {
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "too wide: \(line)")
            }
        }
    }

    @Test func everyCommandIsListedInGeneralHelp() {
        let general = HelpText.general()
        for c in CommandTable.commands {
            #expect(general.contains("\n  \(c.name) "), "\(c.name) missing")
        }
    }

    @Test func everyOptionAppearsInItsCommandsHelpAndParses() throws {
        for c in CommandTable.commands {
            let help = HelpText.command(c)
            for o in c.options {
                #expect(help.contains("--\(o.long)"), "--\(o.long) missing from `kcauth \(c.name) --help`")
                if let s = o.short { #expect(help.contains("-\(s), --\(o.long)")) }
                let args = [c.name, "--\(o.long)"] + (o.takesValue ? [o.choices?.first ?? "x"] : [])
                #expect(throws: Never.self) { try ArgumentParser.parse(args) }
            }
        }
    }

    @Test func helpMentionsOnlyOptionsTheParserAccepts() throws {
        for c in CommandTable.commands {
            let help = HelpText.command(c)
            let mentioned = help.split(whereSeparator: { " ,;.`'[]{}|()\n=".contains($0) })
                .filter { $0.hasPrefix("--") && $0.count > 2 }
                .map { String($0.dropFirst(2)) }
            for name in mentioned where CommandTable.command(named: c.name)?.option(long: name) == nil {
                // Examples may show flags of another command only through `kcauth <other>`: none do today.
                Issue.record("`kcauth \(c.name) --help` mentions --\(name), which the parser rejects")
            }
        }
    }

    @Test func generalHelpDocumentsTheExitCodes() {
        let general = HelpText.general()
        for code in [0, 1, 2, 3, 4, 5] { #expect(general.contains("\n  \(code)  ")) }
    }

    @Test func commandHelpShowsUsageDefaultsAndEnvironment() {
        let login = HelpText.command(LoginCommand.spec)
        #expect(login.contains("Usage:\n  kcauth login {--issuer URL | --server URL --realm NAME}"))
        #expect(login.contains("(default: 300)"))
        #expect(login.contains("env: KCAUTH_ISSUER"))
    }
}

extension HelpTests {
    @Test func examplesFitOnOneLineSoTheyCanBeCopied() {
        for c in CommandTable.commands {
            for e in c.examples { #expect(("  $ " + e).count <= 80, "\(e)") }
        }
    }
}

extension HelpTests {
    /// gh's order: what the command does and examples before the flags; a long description after.
    @Test func loginShowsAThreeLineOverviewAndExamplesBeforeTheFlags() throws {
        let help = HelpText.command(LoginCommand.spec)
        let overview = try #require(LoginCommand.spec.overview)
        let lines = HelpText.wrap(overview, indent: 0, first: "").split(separator: "\n")
        #expect(lines.count <= 3, "\(lines)")
        let order = ["Usage:", lines[0], "Examples:", "Flags:", "Details:"].map { help.range(of: String($0))?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted(), "\(order)")
        #expect(help.contains("Details:\nSigns in with the browser flow"), "the whole description is still there")
    }

    /// An option's help does not list the values its choices list again after it (naming one or
    /// two of many, as a default, is not a list).
    @Test func noOptionSaysItsValuesTwice() {
        for c in CommandTable.commands {
            for o in c.options {
                guard let choices = o.choices, choices.count > 1 else { continue }
                let words = Set(o.help.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "_" }).map(String.init))
                let repeated = choices.filter(words.contains)
                #expect(repeated.count < 2 || repeated.count * 2 <= choices.count, "kcauth \(c.name) --\(o.long): '\(o.help)' lists \(repeated) before its choices do")
            }
        }
    }
}

