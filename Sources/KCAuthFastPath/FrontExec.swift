#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// `kcauth exec [--profile NAME] [--env NAME]... -- COMMAND [ARG...]` with a warm token: the front
/// becomes COMMAND itself (execve(2), no second process), as the full program's `ExecCommand`
/// would, with the same environment, signal dispositions and `PATH` search. Anything else — another
/// flag, an ID token (`--env NAME=id`), a name the full program refuses, a cold cache, a COMMAND
/// that cannot be started — is the full program's (nil), which then says what is wrong.
enum FrontExec {
    struct Request: Equatable {
        var profileFlag: String?
        var variables: [String] = []
        var command: [String] = []

        init?(_ arguments: [String]) {
            guard arguments.first == "exec" else { return nil }
            var i = 1
            var sawProfile = false
            while i < arguments.count {
                let arg = arguments[i]
                if arg == "--" {
                    command = Array(arguments[(i + 1)...])
                    break
                }
                var name = arg, value: String?
                if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                    name = String(arg[..<eq])
                    value = String(arg[arg.index(after: eq)...])
                }
                guard name == "--profile" || name == "--env" else { return nil }
                if value == nil {
                    guard i + 1 < arguments.count else { return nil }
                    value = arguments[i + 1]
                    i += 1
                }
                guard let v = value else { return nil }
                if name == "--profile" {
                    guard !sawProfile, ProfileNameRule.isValid(v) else { return nil }
                    sawProfile = true
                    profileFlag = v
                } else {
                    guard ExecVariableRule.isPortableName(v), !ExecVariableRule.changesHowTheChildRuns(v) else { return nil }
                    variables.append(v)
                }
                i += 1
            }
            guard !command.isEmpty, !command[0].isEmpty else { return nil }
            if variables.isEmpty { variables = [ExecVariableRule.defaultName] }
        }
    }

    /// Runs COMMAND with the cached token, or returns (nothing consumed, nothing started) so the
    /// full program can answer.
    /// `note`: what the front decided, before COMMAND starts (a trace, `--debug`).
    static func serve(arguments: [String], note: (FrontDecision) -> Void = { _ in }) {
        guard let request = Request(arguments) else { return note(.handedOff(.arguments)) }
        let cached: (record: CacheRecord, profile: String)
        switch FastTokenPath.lookup(profileFlag: request.profileFlag, environment: FrontInputs.environment,
                                    read: FrontInputs.read, mark: { SessionMark.read(profile: $0, binding: $1) },
                                    now: FrontInputs.now(), directoryProfile: FrontInputs.directoryProfile) {
        case .found(let record, let profile): cached = (record, profile)
        case .declined(let reason): return note(.handedOff(reason))
        }
        // The environment: the process's, with the token in each variable named (as the full
        // program builds it from its environment dictionary).
        var entries: [String] = []
        var path: String?
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            if name == "PATH" { path = String(text.dropFirst(5)) }
            if !request.variables.contains(name), text.contains("=") { entries.append(text) }
            p += 1
        }
        for variable in request.variables where !entries.contains(where: { $0.hasPrefix(variable + "=") }) {
            entries.append(variable + "=" + cached.record.accessToken)
        }
        let argv = request.command.map { strdup($0) } + [nil]
        let envp = entries.map { strdup($0) } + [nil]
        note(.served("", profile: cached.profile))
        var original = CommandExec.resetSignals()   // the full program's signal state (ProcessReplacement)
        for candidate in CommandExec.candidates(request.command[0], searchPath: path) {
            execve(candidate, argv, envp)
        }
        // Not started: the full program searches again and reports it (127 or 126, as `env`).
        pthread_sigmask(SIG_SETMASK, &original, nil)
        for pointer in argv + envp { free(pointer) }
        note(.handedOff(.commandNotStarted))
    }
}
