import Foundation  // FileManager.subpaths is in Foundation, not FoundationEssentials
import Testing
@testable import KCAuthCLI
import KCAuthTestSupport
@testable import KCAuthDocGen
import KCAuthCore

/// Help, the man page and the completion scripts list exactly what the parser accepts: every
/// command and option of the table is in each of them, and every flag they mention is one the
/// parser accepts (for the command it is mentioned with).
@Suite struct DocsConsistencyTests {
    static let man = ManPage.render()
    static let manLines = man.split(separator: "\n").filter { !$0.hasPrefix(".\\\"") }

    /// The man page's lines of one command's subsection, as plain text.
    static func manSubsection(_ name: String) -> String {
        let start = ".SS \"kcauth \(name)\""
        guard let i = manLines.firstIndex(where: { $0 == start }) else { return "" }
        let body = manLines[(i + 1)...].prefix { !$0.hasPrefix(".SS ") && !$0.hasPrefix(".SH ") }
        return Docs.plain(body.joined(separator: "\n"))
    }

    static func manSection(_ title: String) -> String {
        guard let i = manLines.firstIndex(where: { $0 == ".SH \(title)" || $0 == ".SH \"\(title)\"" }) else { return "" }
        return Docs.plain(manLines[(i + 1)...].prefix { !$0.hasPrefix(".SH ") }.joined(separator: "\n"))
    }

    @Test func everyCommandAndOptionIsInTheManPage() {
        let synopsis = Self.manSection("SYNOPSIS")
        for c in CommandTable.commands {
            #expect(synopsis.contains("kcauth \(c.name)"), "SYNOPSIS lacks kcauth \(c.name)")
            let text = Self.manSubsection(c.name)
            #expect(!text.isEmpty, "COMMANDS lacks kcauth \(c.name)")
            for o in c.options {
                let tag = (o.short.map { "-\($0), " } ?? "") + "--" + o.long + (o.optionalValueSuffix ?? o.value.map { " " + $0 } ?? "")
                #expect(text.contains(tag + "\n"), "man page: kcauth \(c.name) lacks \(tag)")
                if let d = o.defaultValue { #expect(text.contains("Default: \(d)."), "man page: --\(o.long) of \(c.name) lacks its default") }
                for choice in o.choices ?? [] { #expect(text.contains(choice), "man page: --\(o.long) lacks \(choice)") }
            }
        }
        let options = Self.manSection("OPTIONS")
        for o in CommandTable.topLevelOptions { #expect(options.contains("--" + o.long)) }
    }

    /// In prose, a flag must belong to the command of the subsection it is in (anywhere else,
    /// to some command), and a bold `kcauth NAME …` span's flags to NAME. In examples, the flags
    /// after `kcauth NAME`, up to a pipe or the end of the command, belong to NAME; other
    /// programs' flags (`curl -H`, `jq -r`) are not checked.
    @Test func theManPageMentionsOnlyFlagsTheParserAccepts() {
        var subsection: String?
        var inExample = false
        var continuing: String?
        func check(_ flag: String, _ owner: String?, _ line: String) {
            let ok = owner.map { Docs.accepts($0, flag) } ?? Docs.acceptedByAnyCommand(flag)
            #expect(ok, "man page mentions \(flag) for kcauth \(owner ?? "(any command)"), which the parser rejects: \(line)")
        }
        for raw in Self.manLines {
            switch raw {
            case ".EX": inExample = true; continue
            case ".EE": inExample = false; continuing = nil; continue
            case _ where raw.hasPrefix(".SH "): subsection = nil; continue
            case _ where raw.hasPrefix(".SS "): subsection = raw.split(separator: " ").last.map { String($0.dropLast()) }; continue
            case _ where raw.hasPrefix("."): continue
            default: break
            }
            let line = Docs.plain(String(raw))
            if inExample {
                for (command, text) in Self.kcauthInvocations(line, continuing: continuing) {
                    for flag in Docs.flags(in: text) { check(flag, command, line) }
                }
                continuing = line.hasSuffix("\\") ? Self.kcauthInvocations(line, continuing: continuing).last?.0 : nil
                continue
            }
            for (span, bold) in Self.fontSpans(raw) {
                let text = Docs.plain(span)
                let owner = bold ? Self.kcauthInvocations(text, continuing: nil).first?.0 ?? subsection : subsection
                for flag in Docs.flags(in: Substring(text)) { check(flag, owner, line) }
            }
        }
    }

    /// The kcauth commands a shell line runs, each with the text of its arguments.
    static func kcauthInvocations(_ line: String, continuing: String?) -> [(String, Substring)] {
        var result: [(String, Substring)] = []
        var rest = Substring(line)
        func arguments(_ text: Substring) -> Substring { text.prefix { !"|);&<>".contains($0) } }
        if let continuing { result.append((continuing, arguments(rest))) }
        while let r = rest.firstRange(of: "kcauth ") {
            rest = rest[r.upperBound...]
            let word = rest.prefix { $0.isLetter || $0 == "-" || $0 == "_" }
            guard CommandTable.command(named: String(word)) != nil else { continue }
            result.append((String(word), arguments(rest.dropFirst(word.count))))
        }
        return result
    }

    /// A roff text line cut at its font changes: (text, whether it is bold).
    static func fontSpans(_ raw: Substring) -> [(String, Bool)] {
        var spans: [(String, Bool)] = []
        var bold = false
        var rest = raw
        while let r = rest.firstRange(of: "\\f") {
            spans.append((String(rest[..<r.lowerBound]), bold))
            bold = rest[r.upperBound...].first == "B"
            rest = rest[r.upperBound...].dropFirst()
        }
        spans.append((String(rest), bold))
        return spans
    }

    @Test func theEnvironmentSectionListsEveryVariableKcauthReads() throws {
        let environment = Self.manSection("ENVIRONMENT")
        for o in CommandTable.commands.flatMap(\.options) {
            guard let name = o.environment else { continue }
            #expect(environment.contains("\n" + name + "\n") || environment.hasPrefix(name + "\n"), "ENVIRONMENT lacks \(name)")
        }
        let read = try Self.kcauthVariablesReadInSources()
        #expect(read.contains("KCAUTH_TOKEN_CACHE"), "the scan of Sources found \(read)")
        for name in read { #expect(environment.contains(name), "ENVIRONMENT lacks \(name), which Sources read") }
        var mentioned = Set<String>()
        var rest = Substring(Self.man)
        while let r = rest.firstRange(of: "KCAUTH_") {
            let name = "KCAUTH_" + rest[r.upperBound...].prefix { $0.isUppercase || $0 == "_" }
            // Part of a longer name (`LC_KCAUTH_FORWARD`, which kcauth ssh sends) is not this one.
            let partOfLonger = r.lowerBound > Self.man.startIndex && Self.man[Self.man.index(before: r.lowerBound)] == "_"
            if !partOfLonger { mentioned.insert(name) }
            rest = rest[r.upperBound...]
        }
        for name in mentioned { #expect(read.contains(name), "the man page names \(name), which kcauth does not read") }
        for name in ["BROWSER", "NO_COLOR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "https_proxy", "no_proxy"] {
            #expect(environment.contains(name), "ENVIRONMENT lacks \(name)")
        }
    }

    /// `"KCAUTH_X"` and `"$KCAUTH_X"` string literals in Sources: the variables kcauth reads.
    /// (Names kcauth prints, like `KCAUTH_ACCESS_TOKEN` for `-o env`, are built by interpolation.)
    static func kcauthVariablesReadInSources() throws -> Set<String> {
        var names = Set<String>()
        let sources = Docs.root + "/Sources"
        for path in FileManager.default.subpaths(atPath: sources) ?? [] where path.hasSuffix(".swift") {
            let text = try Docs.read("Sources/" + path)
            var rest = Substring(text)
            while let r = rest.firstRange(of: "KCAUTH_") {
                let before = rest[..<r.lowerBound].suffix(2)
                let name = rest[r.upperBound...].prefix { $0.isUppercase || $0 == "_" }
                let after = rest[r.upperBound...].dropFirst(name.count).first
                if (before.last == "\"" || before == "\"$"), after == "\"" { names.insert("KCAUTH_" + name) }
                rest = rest[r.upperBound...]
            }
        }
        return names
    }

    @Test func theExitStatusSectionListsTheDocumentedCodes() {
        let section = Self.manSection("EXIT STATUS")
        for status in ExitStatus.documented {
            #expect(section.contains("\(status.code)\n"), "EXIT STATUS lacks \(status.code)")
        }
    }

    /// The man page generator is a build tool (`kcauth-docgen man`), not a command of kcauth:
    /// the old hidden `kcauth __man` is gone, and nothing lists or completes it.
    @Test func theGeneratorIsNotACommandOfKcauth() {
        #expect(CommandTable.command(named: "__man") == nil)
        #expect(throws: KCAuthError.self) { try ArgumentParser.parse(["__man"]) }
        #expect(!Self.manLines.contains { $0.contains("__man") }, "the man page lists __man")
        #expect(!HelpText.general().contains("__man"))
        for script in [Completions.bash(), Completions.zsh(), Completions.fish()] {
            #expect(!script.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.contains("__man") })
        }
    }

    @Test func everyOptionHasAOneLineHelpAndShowsItsDefault() {
        for c in CommandTable.commands {
            let help = HelpText.command(c).split(separator: "\n").joined(separator: " ").split(separator: " ").joined(separator: " ")
            for o in c.options {
                #expect(!o.help.isEmpty && !o.help.contains("\n") && !o.help.hasSuffix("."), "--\(o.long) of \(c.name)")
                if let d = o.defaultValue { #expect(help.contains("default: \(d)"), "--\(o.long) of \(c.name): no default in help") }
            }
        }
    }
}
