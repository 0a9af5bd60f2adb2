#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// `--debug` and `KCAUTH_DEBUG` in the front: one line saying what it did with the command —
/// served it, or handed it to `kcauth-full` and why — in the trace's layout (``TraceLine``), on
/// standard error or appended to `KCAUTH_DEBUG_FILE` (``TraceFile``); `kcauth-full` appends
/// the rest. When nobody asks for a trace, all this costs is ``isAsked(_:)``: one `getenv` and a
/// look at the first bytes of each argument (docs/performance.md §6).
enum FrontTrace {
    enum Setting {
        /// No trace: the front answers as it always does.
        case off
        /// A trace whose setting or file the full program must judge (and refuse, in its words).
        case handOff
        /// Trace to `writer`; `arguments` without `--debug`.
        case on(TraceWriter, arguments: [String])
    }

    /// Whether a trace may be asked for: `KCAUTH_DEBUG` set, or an argument `--debug…`.
    static func isAsked(_ arguments: [String]) -> Bool {
        if let value = getenv("KCAUTH_DEBUG"), value.pointee != 0 { return true }
        var i = 0
        while i < arguments.count {
            if isFlag(arguments[i]) { return true }
            i += 1
        }
        return false
    }

    /// `--debug` or `--debug=…`, over bytes (docs/performance.md §4).
    static func isFlag(_ argument: String) -> Bool {
        var copy = argument
        return copy.withUTF8 { b in
            let flag: [UInt8] = [0x2D, 0x2D, 0x64, 0x65, 0x62, 0x75, 0x67]   // --debug
            guard b.count >= flag.count else { return false }
            var i = 0
            while i < flag.count { if b[i] != flag[i] { return false }; i += 1 }
            return b.count == flag.count || b[flag.count] == 0x3D
        }
    }

    /// The setting the arguments and the environment give. `--debug` counts before the command
    /// and among the command's own words: before `--`, and for `exec` before its COMMAND.
    static func setting(_ arguments: [String], environment: (String) -> String?) -> Setting {
        var rest: [String] = []
        var flag: TraceMode.Setting?
        var own = true
        for argument in arguments {
            if own, isFlag(argument) {
                let value = argument.utf8.count > 7 ? String(decoding: Array(argument.utf8)[8...], as: UTF8.self) : nil
                flag = TraceMode.setting(flag: value)
                continue
            }
            if argument == "--" || (rest.first == "exec" && !argument.hasPrefix("-") && !isValueOfExecOption(rest)) {
                own = false
            }
            rest.append(argument)
        }
        switch flag ?? TraceMode.setting(environment: environment(SettingsCatalogue.debug.environment!)) {
        case .off: return .off
        case .refused: return .handOff
        case .on(let mode):
            guard let file = environment(SettingsCatalogue.debugFile.environment!), !file.isEmpty else {
                return .on(TraceWriter(fd: 2, mode: mode), arguments: rest)
            }
            guard case .success(let fd) = TraceFile.open(file) else { return .handOff }
            return .on(TraceWriter(fd: fd, mode: mode), arguments: rest)
        }
    }

    /// `exec --profile NAME`, `exec --env NAME`: the word after the option (the last one kept) is its value.
    static func isValueOfExecOption(_ kept: [String]) -> Bool {
        kept.count > 1 && (kept[kept.count - 1] == "--profile" || kept[kept.count - 1] == "--env")
    }

    /// Serves the command with a trace; nil: run the full program (after the line saying why).
    static func serve(_ writer: TraceWriter, _ arguments: [String]) -> Int32? {
        defer { if writer.fd != 2 { close(writer.fd) } }
        guard let command = arguments.first else { return nil }
        switch command {
        case "token":
            let decision = FastTokenPath.decide(arguments: arguments, environment: FrontInputs.environment, read: FrontInputs.read,
                                                mark: { SessionMark.read(profile: $0, binding: $1) }, now: FrontInputs.now(),
                                                directoryProfile: FrontInputs.directoryProfile)
            note(writer, command, decision)
            guard case .served(let output, _) = decision else { return nil }
            StandardOutput.write(output)
            return 0
        case "exec":
            FrontExec.serve(arguments: arguments) { note(writer, command, $0) }
            return nil
        case "git-credential", "docker-credential":
            guard let request = FrontCredentialHelpers.Request(arguments) else {
                note(writer, command, .handedOff(.helperRequest))
                return nil
            }
            let status = FrontDispatch.serveHelper(request)
            note(writer, command, status == 0 ? .served("", profile: request.profileFlag ?? "-") : .handedOff(.helperRequest))
            return status
        default:
            note(writer, command, .handedOff(.command))
            return nil
        }
    }

    /// The front's line: `front command=token decision=served profile=work`, or
    /// `decision=handed to kcauth-full reason=…`.
    static func note(_ writer: TraceWriter, _ command: String, _ decision: FrontDecision) {
        var fields = [TraceLine.Member("command", .text(command)), TraceLine.Member("program", .text("kcauth (front)"))]
        switch decision {
        case .served(_, let profile):
            fields.append(TraceLine.Member("decision", .text("served")))
            fields.append(TraceLine.Member("profile", .text(profile)))
        case .handedOff(let reason):
            fields.append(TraceLine.Member("decision", .text("handed to kcauth-full")))
            fields.append(TraceLine.Member("reason", .text(reason.rawValue)))
        }
        writer.write(event: "front.decision", fields: fields)
    }
}
