import Foundation
import Testing
@testable import KCAuthCLI
import KCAuthCore
@testable import KCAuthDocGen

/// Every `kcauth …` command kcauth quotes to a person is one its parser accepts: the remedies,
/// hints and messages (KCAuthCLI's words and output, rendered, and every literal one in the
/// source), the commands' help (descriptions, option help, examples), README.md, docs/*.md and
/// the man page. A placeholder (`NAME`, `URL`, `COMMAND`) stands for any value, and is given a
/// valid one where the parser holds the value to a list; usage notation (`[flags]`, `{a|b}`,
/// `...`) is read as the command it describes.
@Suite struct QuotedCommandsTests {
    struct Quote: CustomStringConvertible {
        var command: String
        var origin: String
        var description: String { "\(origin): `\(command)`" }
    }

    // MARK: Where commands are quoted

    /// `kcauth …` spans between backticks, whitespace (and line breaks) collapsed.
    static func backticked(_ text: String) -> [String] {
        var found: [String] = []
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        var i = 1
        while i < parts.count - 1 {
            let span = parts[i].split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
            if span.hasPrefix("kcauth ") { found += inShellLine(span).prefix(1) }
            i += 2
        }
        return found
    }

    /// The `kcauth …` commands in a shell line (`eval "$(kcauth token -o env)"`,
    /// `kcauth token -o curl | curl -K - URL`), each up to the shell's next operator or comment.
    static func inShellLine(_ line: String) -> [String] {
        var found: [String] = []
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            let startsWord = i == 0 || " (\"'|;&=".contains(chars[i - 1])
            guard startsWord, String(chars[i...].prefix(7)) == "kcauth " else { i += 1; continue }
            // Quotes and usage notation (`{a | b}`, `[x]`) are inside the command, not operators.
            var j = i, quote: Character?, depth = 0
            while j < chars.count {
                let c = chars[j]
                if let q = quote {
                    if c == q { quote = nil }
                } else if c == "'" || c == "\"" {
                    quote = c
                } else if c == "[" || c == "{" {
                    depth += 1
                } else if c == "]" || c == "}" {
                    depth -= 1
                } else if depth <= 0, "|;&><)".contains(c) || (c == "#" && j > 0 && chars[j - 1] == " ") {
                    break
                }
                j += 1
            }
            found.append(String(chars[i..<j]).trimmingCharacters(in: .whitespaces))
            i = j
        }
        return found
    }

    /// Markdown: backticked spans in prose, and the lines of fenced blocks: in a transcript (a
    /// block with `$ ` prompts) the prompted lines; in a shell block every line but comments; in
    /// a plain block the lines that start with `kcauth` (usage lines too; the others are
    /// output). A trailing `\` joins the next line. Blocks of another language (`ini`, `json`,
    /// `swift`) or of output (`text`) quote no command.
    static func markdown(_ text: String, origin: String) -> [Quote] {
        var quotes: [Quote] = []
        let segments = text.components(separatedBy: "```")
        for (index, segment) in segments.enumerated() {
            if index % 2 == 0 {
                quotes += backticked(segment).map { Quote(command: $0, origin: origin) }
                continue
            }
            let lines = segment.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard ["", "sh", "bash", "shell", "console"].contains(lines[0]) else { continue }
            let transcript = lines.contains { $0.hasPrefix("$ ") }
            for line in joinedContinuations(Array(lines.dropFirst())) {
                if transcript && !line.hasPrefix("$ ") { continue }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#") || (!transcript && lines[0].isEmpty && !trimmed.hasPrefix("kcauth ")) { continue }
                let shell = transcript ? String(line.dropFirst(2)) : line
                quotes += inShellLine(shell).map { Quote(command: $0, origin: origin + " (code)") }
            }
        }
        return quotes
    }

    static func joinedContinuations(_ lines: [String]) -> [String] {
        var out: [String] = []
        var pending = ""
        for line in lines {
            if line.hasSuffix("\\") { pending += line.dropLast() + " "; continue }
            out.append(pending + line)
            pending = ""
        }
        if !pending.isEmpty { out.append(pending) }
        return out
    }

    /// The man page: bold `kcauth …` in its prose and the shell lines of its examples (the
    /// synopsis and each command's usage line are notation, held to the parser elsewhere).
    static func manPage(_ roff: String) -> [Quote] {
        var quotes: [Quote] = []
        var example: [String]?
        var prose = ""
        for line in roff.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == ".EX" { example = []; continue }
            if line == ".EE" {
                for joined in joinedContinuations(example ?? []) {
                    quotes += inShellLine(joined).map { Quote(command: $0, origin: "man/kcauth.1 (example)") }
                }
                example = nil
                continue
            }
            if example != nil {
                example?.append(Docs.plain(String(line)))
            } else if !line.hasPrefix(".") {
                prose += line + "\n"
            } else {
                prose += "\n"
            }
        }
        // Bold spans (`code` in the source) become backticks again.
        let marked = prose.replacingOccurrences(of: "\\fB", with: "`").replacingOccurrences(of: "\\fR", with: "`")
        for span in backticked(Docs.plain(marked).replacingOccurrences(of: "``", with: "")) {
            quotes.append(Quote(command: span, origin: "man/kcauth.1"))
        }
        return quotes
    }

    /// Literal quotes in the CLI's Swift source (not in comments): what the rendered words below
    /// do not reach. An interpolated value (`\(profile)`) stands for a name; a quote whose
    /// command word is interpolated is built from a spec, and rendered below.
    static func source(_ path: String) throws -> [Quote] {
        var text = try Docs.read(path)
        // Multi-line string literals continue a line with a trailing backslash.
        while let range = text.range(of: "\\\n") {
            var end = range.upperBound
            while end < text.endIndex, text[end] == " " { end = text.index(after: end) }
            text.replaceSubrange(range.lowerBound..<end, with: "")
        }
        let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        return backticked(withoutInterpolations(code)).compactMap { command in
            command.split(separator: " ").dropFirst().first == "INTERPOLATED" ? nil : Quote(command: command, origin: path)
        }
    }

    /// Each `\(…)` (parentheses balanced) as the word NAME, or INTERPOLATED where it is a
    /// command's name (right after `kcauth `).
    static func withoutInterpolations(_ code: String) -> String {
        var out = ""
        let chars = Array(code)
        var i = 0
        while i < chars.count {
            guard chars[i] == "\\", i + 1 < chars.count, chars[i + 1] == "(" else { out.append(chars[i]); i += 1; continue }
            var depth = 0, j = i + 1
            repeat {
                if chars[j] == "(" { depth += 1 } else if chars[j] == ")" { depth -= 1 }
                j += 1
            } while depth > 0 && j < chars.count
            out += out.hasSuffix("kcauth ") ? "INTERPOLATED" : "NAME"
            i = j
        }
        return out
    }

    static func swiftFiles(under directory: String) throws -> [String] {
        let root = Docs.root + "/"
        guard let walker = FileManager.default.enumerator(atPath: root + directory) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { directory + "/" + $0 }
    }

    /// Every remedy, so each is rendered (a new one must be added here: ``covered(_:)``).
    static let remedies: [KCAuthError.Remedy] = [
        .signIn(profile: "work"), .signIn(profile: "default"), .signInAgain(profile: "work"), .addEntryByHand,
        .checkCA(host: "sso.example.com", caFile: nil), .checkCA(host: "sso.example.com", caFile: "/etc/ca.pem"),
        .checkHostName(host: "sso.example.com"), .signInWithoutDPoP, .signInWithPAR([.always, .never]),
        .signInOnLaptop(profile: "work"), .reconnectForward(variable: "LC_KCAUTH_FORWARD"), .installBrowserLauncher(wsl: true),
        .installBrowserLauncher(wsl: false), .passphraseEachCommand, .createEncryptedStore, .passphraseWithoutKernelKeyring,
        .unlockStore, .givePassphraseFile, .moveDamagedSessionAway, .relockStore, .readableCAFile, .retryOrCheckProvider,
        .startKeyring, .createKeyringCollection, .installKeyring, .unlockKeyring, .unlockKeyringWithDialog, .restartKeyring,
        .chooseAnotherPort, .choosePortAbove1023, .openAddressYourself(fixCommand: true), .openAddressYourself(fixCommand: false),
        .openAddressOrNameBrowser, .giveClientCredential, .giveIssuer, .giveClientID,
        .loginWithSettings(profile: "work", issuer: true, clientID: true), .loginWithSettings(profile: "default", issuer: false, clientID: true),
        .passSettings, .noSuchProfile("work"), .useFixedPort, .useBrowserFlow, .useBrowserFlowOrEnableDevice(clientID: "cli"),
        .signInAgainThenCheckClient, .signInAgainThenCheckPrograms, .pushAuthorizationRequests, .checkClientOrSkipPushedAuthorization,
        .signInWithDPoP, .signInWithClientCredentials(profile: "ci"), .askWithoutUserinfo, .fixDefaultProfile, .useClientKey,
        .fixSavedIssuer, .exampleBrowserCommand, .createProfileOrChangeFile(profile: "acme", file: "/src/app/.kcauth-profile"),
        .addClusterFirst, .unlockKeyringOrChooseStore,
        .checkClientOrRedirectURI(RefusedAuthorization(suspect: .either, clientID: "cli", redirectURI: "http://127.0.0.1:8400/callback",
                                                       anyPortAccepted: false, fixedPortMayHelp: true)),
        .grantIDTokenPermission, .renewIDTokenRequest, .retryPlatformIDToken, .checkIDTokenRequestURL, .checkFederatedClient,
    ]

    /// Does not compile when a remedy is added: add it to ``remedies`` too.
    static func covered(_ remedy: KCAuthError.Remedy) {
        switch remedy {
        case .signIn, .signInAgain, .addEntryByHand, .checkCA, .checkHostName, .signInWithoutDPoP, .signInWithPAR, .signInOnLaptop,
             .reconnectForward, .installBrowserLauncher, .passphraseEachCommand, .createEncryptedStore, .passphraseWithoutKernelKeyring,
             .unlockStore, .givePassphraseFile, .moveDamagedSessionAway, .relockStore, .readableCAFile, .retryOrCheckProvider,
             .startKeyring, .createKeyringCollection, .installKeyring, .unlockKeyring, .unlockKeyringWithDialog, .restartKeyring,
             .chooseAnotherPort, .choosePortAbove1023, .openAddressYourself, .openAddressOrNameBrowser, .giveClientCredential,
             .giveIssuer, .giveClientID, .loginWithSettings, .passSettings, .noSuchProfile, .useFixedPort, .useBrowserFlow,
             .useBrowserFlowOrEnableDevice, .signInAgainThenCheckClient, .signInAgainThenCheckPrograms, .pushAuthorizationRequests,
             .checkClientOrSkipPushedAuthorization, .signInWithDPoP, .signInWithClientCredentials, .askWithoutUserinfo,
             .fixDefaultProfile, .useClientKey, .fixSavedIssuer, .exampleBrowserCommand, .createProfileOrChangeFile, .addClusterFirst, .unlockKeyringOrChooseStore,
             .checkClientOrRedirectURI, .grantIDTokenPermission, .renewIDTokenRequest, .retryPlatformIDToken,
             .checkIDTokenRequestURL, .checkFederatedClient:
            break
        }
    }

    /// The wrong command lines whose errors quote a command to run instead.
    static let mistakes: [[String]] = CommandTable.commands.map { [$0.name, "--profile", "kc"] }
        + CommandTable.commands.map { ["--profile", "kc", $0.name] }
        + [["--output", "json", "token"], ["--min-valid", "60", "exec"], ["token", "work"], ["tokn"], ["token", "--outptu", "json"]]

    /// What the CLI says, rendered: remedies, store words, the commands' help and examples, and
    /// the errors of mistaken command lines.
    static func renderedWords() -> [Quote] {
        var quotes: [Quote] = []
        func add(_ text: String, _ origin: String) { quotes += backticked(text).map { Quote(command: $0, origin: origin) } }
        for remedy in remedies { add(RemedyWords.text(remedy), "RemedyWords.text(.\(remedy))") }
        add(RemedyWords.chooseAStore + " " + RemedyWords.fixedPortWhileWaiting + " " + RemedyWords.fixedPortAfterTimeout, "RemedyWords")
        let now = Instant(epochSeconds: 1_800_000_000)!
        for state in [EncryptedStoreState.locked, .absent, .keyringUnavailable("no keyctl"), .unlocked(until: now)] {
            add(StoreWords.state(state, now: now), "StoreWords.state(.\(state))")
        }
        for spec in CommandTable.commands {
            add(spec.description + " " + spec.summary, "kcauth help \(spec.name)")
            for option in spec.options { add(option.help, "kcauth help \(spec.name) (--\(option.long))") }
            quotes += spec.examples.flatMap(inShellLine).map { Quote(command: $0, origin: "kcauth help \(spec.name) (example)") }
        }
        add(HelpText.general(), "kcauth help")
        for argv in mistakes {
            do {
                _ = try ArgumentParser.parse(argv)
            } catch let error as KCAuthError {
                add(ErrorPresenter.line(error), "the error of `kcauth \(argv.joined(separator: " "))`")
            } catch {}
        }
        return quotes
    }

    static func allQuotes() throws -> [Quote] {
        var quotes = renderedWords()
        for directory in ["Sources/KCAuthCLI"] {
            for path in try swiftFiles(under: directory) { quotes += try source(path) }
        }
        quotes += try source("Sources/KCAuthDocGen/ManPageText.swift")
        quotes += markdown(try Docs.read("README.md"), origin: "README.md")
        for name in try FileManager.default.contentsOfDirectory(atPath: Docs.root + "/docs").filter({ $0.hasSuffix(".md") }).sorted() {
            quotes += markdown(try Docs.read("docs/" + name), origin: "docs/" + name)
        }
        quotes += manPage(try Docs.read("man/kcauth.1"))
        return quotes
    }

    // MARK: Reading a quoted command

    /// Usage notation read as the command it describes: `[flags]` dropped, a group `[x]` or
    /// `{x}` as its first alternative (`{a | b}`, `[-o text|json]`), innermost first; `...`
    /// and `…` dropped.
    static func resolvedNotation(_ command: String) -> String {
        var text = command.replacingOccurrences(of: "[flags]", with: "").replacingOccurrences(of: "...", with: "")
            .replacingOccurrences(of: "…", with: "")
        while let close = text.firstIndex(where: { $0 == "]" || $0 == "}" }),
              let open = text[..<close].lastIndex(where: { $0 == "[" || $0 == "{" }) {
            let inner = text[text.index(after: open)..<close]
            let first = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            text.replaceSubrange(open...close, with: first.trimmingCharacters(in: .whitespaces))
        }
        if let bar = text.firstIndex(of: "|") { text = String(text[..<bar]) }  // `text|json` outside a group
        return text
    }

    /// Shell words (single and double quotes) of the command, its notation resolved.
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var word = "", quote: Character?, inWord = false
        for c in resolvedNotation(command) {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return Array(words.dropFirst())
    }

    /// `NAME`, `SSH-OPTIONS`, `<command>`.
    static func isPlaceholder(_ word: String) -> Bool {
        if word.hasPrefix("<"), word.hasSuffix(">") { return true }
        guard let first = word.first, first.isUppercase else { return false }
        return word.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    /// Placeholders given a value where the parser holds the value to a list: the command word,
    /// an option's value with choices, a positional argument with choices or a command name.
    static func instantiated(_ words: [String]) -> [String] {
        var out: [String] = []
        var spec: CommandSpec?
        var i = 0
        while i < words.count {
            var word = words[i]
            let options = spec?.options ?? CommandTable.topLevelOptions
            if word.hasPrefix("-"), word != "--" {
                let name = word.hasPrefix("--") ? String(word.dropFirst(2).prefix { $0 != "=" }) : nil
                let option = name.map { n in options.first { $0.long == n } } ?? options.first { word.count == 2 && $0.short == word.last }
                if let option, option.takesValue {
                    if let eq = word.firstIndex(of: "=") {
                        let value = String(word[word.index(after: eq)...])
                        if let choices = option.choices, isPlaceholder(value) { word = String(word[...eq]) + choices[0] }
                    } else if i + 1 < words.count {
                        out.append(word)
                        i += 1
                        var value = words[i]
                        if let choices = option.choices, isPlaceholder(value) { value = choices[0] }
                        word = value
                    }
                }
            } else if spec == nil {
                if isPlaceholder(word) { word = "token" }
                spec = CommandTable.command(named: word)
            } else if isPlaceholder(word), let s = spec {
                switch s.arguments {
                case .choices(let list): word = list[0]
                case .commands: word = "token"
                default: break
                }
            }
            out.append(word)
            i += 1
        }
        return out
    }

    /// Why the parser refuses the command, or nil.
    static func refusal(_ quote: Quote) -> String? {
        let argv = instantiated(words(quote.command))
        do {
            _ = try ArgumentParser.parse(argv)
            return nil
        } catch let error as KCAuthError {
            return "\(quote) → \(argv): \(ErrorPresenter.line(error))"
        } catch {
            return "\(quote): \(error)"
        }
    }

    // MARK: Tests

    @Test func everyQuotedCommandParses() throws {
        let quotes = try Self.allQuotes()
        #expect(quotes.count > 300, "the extraction found \(quotes.count) quoted commands")
        let refused = quotes.compactMap(Self.refusal)
        #expect(refused.isEmpty, "commands quoted that the parser refuses:\n\(refused.joined(separator: "\n"))")
    }

    /// What a command that uses no profile says when given one is about that command: it
    /// quotes only itself (its usage), not another command (`setup-client --profile kc` once
    /// answered with `kcauth use kc`).
    @Test func aCommandGivenAProfileItDoesNotUseQuotesOnlyItself() {
        for spec in CommandTable.commands where spec.option(long: "profile") == nil && spec.arguments != .profiles {
            for argv in [[spec.name, "--profile", "kc"], ["--profile", "kc", spec.name]] {
                #expect(throws: KCAuthError.self) { try ArgumentParser.parse(argv) }
                guard case let error as KCAuthError = Result(catching: { try ArgumentParser.parse(argv) }).failure else { continue }
                let quoted = Self.backticked(ErrorPresenter.line(error))
                #expect(!quoted.isEmpty && quoted.allSatisfy { $0 == "kcauth \(spec.name)" || $0.hasPrefix("kcauth \(spec.name) ") },
                        "\(argv): \(ErrorPresenter.line(error))")
            }
        }
    }

    /// The extraction and the check can fail: a quoted command the parser refuses is found.
    @Test func aRefusedCommandIsFound() {
        let quotes = Self.markdown("Run `kcauth login --dpop no` or\n\n```sh\n$ kcauth token --output yaml | cat\n```\n", origin: "t")
        #expect(quotes.map(\.command) == ["kcauth login --dpop no", "kcauth token --output yaml"])
        #expect(quotes.allSatisfy { Self.refusal($0) != nil })
        #expect(Self.refusal(Quote(command: "kcauth login --dpop-mode no", origin: "t")) == nil)
        #expect(Self.refusal(Quote(command: "kcauth completion SHELL", origin: "t")) == nil)
        #expect(Self.refusal(Quote(command: "kcauth COMMAND --help", origin: "t")) == nil)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
