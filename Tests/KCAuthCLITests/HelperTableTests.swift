import KCAuthContract
import KCAuthCore
import Testing
@testable import KCAuthCLI
@testable import KCAuthFastPath

/// The helper table (``CredentialHelper``) is what the full program's parser, the front and the
/// completions go by: every row's program name runs its command in both programs, the command's
/// usage and actions are the row's, and the front answers exactly the row's warm actions.
@Suite struct HelperTableTests {
    @Test(arguments: CredentialHelper.all)
    func theParserRunsTheRowsCommandUnderItsProgramName(_ helper: CredentialHelper) throws {
        #expect(ProgramName.arguments(["/usr/bin/" + helper.program, "get"]) == [helper.command, "get"])
        #expect(ProgramName.arguments([helper.program]) == [helper.command])
        #expect(ProgramName.arguments(["/opt/" + helper.program + "-old", "get"]) == ["get"])
        let spec = try #require(CommandTable.command(named: helper.command))
        #expect(spec.usage == "{" + helper.actionWords.joined(separator: "|") + "} [flags]")
        #expect(spec.summary.contains(helper.program))
        #expect(spec.description.contains("`\(helper.program)`"))
        // The actions are offered, not enforced: git may grow new ones.
        #expect(spec.arguments == .offered(helper.actionWords))
        for action in helper.actions {
            guard case .run(let parsed) = try ArgumentParser.parse(ProgramName.arguments([helper.program, action.rawValue])) else {
                Issue.record("\(helper.program) \(action) is not a run")
                continue
            }
            #expect(parsed.name == helper.command && parsed.positionals == [action.rawValue])
            #expect(try HelperOptions.action(parsed, helper) == action)
        }
    }

    @Test(arguments: CredentialHelper.all)
    func anActionTheProtocolLacksIsIgnoredOrRefusedAsTheRowSays(_ helper: CredentialHelper) throws {
        guard case .run(let parsed) = try ArgumentParser.parse([helper.command, "frobnicate"]) else {
            Issue.record("not a run")
            return
        }
        if helper.ignoresUnknownActions {
            #expect(try HelperOptions.action(parsed, helper) == nil)
        } else {
            #expect { try HelperOptions.action(parsed, helper) } throws: { error in
                (error as? KCAuthError)?.hint == "use " + helper.actionWords.dropLast().joined(separator: ", ") + " or " + helper.actionWords.last!
            }
        }
        guard case .run(let bare) = try ArgumentParser.parse([helper.command]) else { return }
        #expect { try HelperOptions.action(bare, helper) } throws: { error in
            (error as? KCAuthError)?.message == "\(helper.command) needs an action: " + HelperOptions.actionList(helper)
        }
    }

    @Test(arguments: CredentialHelper.all)
    func theFrontRunsTheRowsCommandAndServesOnlyItsWarmActions(_ helper: CredentialHelper) {
        #expect(FrontDispatch.arguments(argv0: helper.program, ["get"]) == [helper.command, "get"])
        #expect(FrontDispatch.arguments(argv0: "/usr/bin/" + helper.program, []) == [helper.command])
        for action in CredentialHelper.Action.allCases {
            let request = FrontCredentialHelpers.Request([helper.command, action.rawValue])
            #expect((request != nil) == helper.warmActions.contains(action), "\(helper.command) \(action)")
            if let request { #expect(request.wire == helper.wire) }
        }
        #expect(helper.warmActions.allSatisfy(helper.actions.contains))
    }

    @Test func theTableNamesEachProgramAndCommandOnce() {
        let programs = CredentialHelper.all.map(\.program), commands = CredentialHelper.all.map(\.command)
        #expect(Set(programs).count == programs.count && Set(commands).count == commands.count)
        #expect(CredentialHelper.named(program: "kcauth") == nil && CredentialHelper.named(command: "token") == nil)
        // A name that is no helper's is the full program's to dispatch, and the front answers nothing for it.
        #expect(FrontDispatch.arguments(argv0: "other-credential-kcauth", []) == nil)
    }

    @Test(arguments: CredentialHelper.all)
    func theCompletionsOfferTheRowsActions(_ helper: CredentialHelper) {
        let words = helper.actionWords.joined(separator: " ")
        #expect(Completions.bash().contains("            \(helper.command)) _kcauth_reply '\(words)' ;;"))
        #expect(Completions.zsh().contains("'1:ACTION:(\(words))'"))
        #expect(Completions.fish().contains("'__kcauth_wants_argument \(helper.command) 1 --profile' -a '\(words)'"))
    }
}
