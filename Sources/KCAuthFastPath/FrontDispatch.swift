#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// What the front serves itself (docs/performance.md §6): `kcauth token`, kubectl's exec plugin
/// call (the same command with `KUBERNETES_EXEC_INFO`), the git and docker helpers' `get` and
/// `kcauth exec`, each only with a warm token and inputs the full program accepts. Everything else
/// returns and the caller execs the full program, with standard input as it was.
public enum FrontDispatch {
    /// The arguments as the full program sees them: under a helper's program name, that
    /// helper's command first (`git-credential-kcauth get` is `kcauth git-credential get`, as
    /// ProgramName has it in the full program; both read ``CredentialHelper``); nil for a name
    /// that is neither kcauth nor a helper's. A plain `kcauth` does not look at the table.
    public static func arguments(argv0: String, _ rest: [String]) -> [String]? {
        let name = baseName(argv0)
        if name == "kcauth" { return rest }
        guard let helper = CredentialHelper.named(program: name) else { return nil }
        return [helper.command] + rest
    }

    /// ``serve(argv0:arguments:)`` with the process's argv, each argument decoded as
    /// `CommandLine.arguments` does (invalid UTF-8 repaired) but without building that array:
    /// its one-time initialiser runs standard-library code nothing else here needs
    /// (docs/performance.md §4).
    public static func serveCommandLine() -> Int32? {
        let argc = Int(CommandLine.argc), argv = CommandLine.unsafeArgv
        var arguments: [String] = []
        var index = 1
        while index < argc {
            if let argument = argv[index] { arguments.append(ASCIIText.string(cString: argument)) }
            index += 1
        }
        let argv0 = argc > 0 ? argv[0].map { ASCIIText.string(cString: $0) } ?? "" : ""
        return serve(argv0: argv0, arguments: arguments)
    }

    /// The last `/`-separated part of argv[0] (trailing slashes ignored; argv[0] itself when it
    /// has no part), over bytes rather than `split` (docs/performance.md §4). A `/` followed by a
    /// non-ASCII byte could join a combining mark into another character: then String decides.
    static func baseName(_ argv0: String) -> String {
        var copy = argv0
        let cut: (Int, Int)? = copy.withUTF8 { b in
            var hi = b.count
            while hi > 0, b[hi - 1] == 0x2F { hi -= 1 }
            var lo = hi
            while lo > 0, b[lo - 1] != 0x2F { lo -= 1 }
            var i = 0
            while i < b.count { if b[i] >= 0x80 { return nil }; i += 1 }
            return (lo, hi)
        }
        guard let (lo, hi) = cut else { return argv0.split(separator: "/").last.map(String.init) ?? argv0 }
        guard hi > lo else { return argv0 }
        if lo == 0, hi == argv0.utf8.count { return argv0 }
        return String(decoding: Array(argv0.utf8)[lo..<hi], as: UTF8.self)
    }

    /// Serves the command if it can and returns its exit status; nil: run the full program.
    public static func serve(argv0: String, arguments rest: [String]) -> Int32? {
        guard let arguments = arguments(argv0: argv0, rest), let first = arguments.first else { return nil }
        // `--debug`, `KCAUTH_DEBUG`: the one check the front makes when nobody asks for a trace.
        if FrontTrace.isAsked(arguments) {
            switch FrontTrace.setting(arguments, environment: FrontInputs.environment) {
            case .off: break
            case .handOff: return nil
            case .on(let writer, let rest): return FrontTrace.serve(writer, rest)
            }
        }
        switch first {
        case "token":
            return FastTokenPath.serve(arguments: arguments)
        case "prompt":
            return FastPrompt.serve(arguments: arguments)
        case "exec":
            FrontExec.serve(arguments: arguments)   // returns only when it did not start the command
            return nil
        default:
            guard let request = FrontCredentialHelpers.Request(arguments) else { return nil }
            return serveHelper(request)
        }
    }

    static func serveHelper(_ request: FrontCredentialHelpers.Request) -> Int32? {
        let environment = FrontInputs.environment, read = FrontInputs.read
        let mark: SessionMark.Lookup = { SessionMark.read(profile: $0, binding: $1) }
        let answer: String?
        let input: (bytes: [UInt8], overLimit: Bool)
        let wire = request.wire
        switch wire {
        case .git:
            input = StandardInputReader.read(limit: wire.inputLimit, stopAtBlankLine: wire.endsAtBlankLine)
            answer = input.overLimit ? nil
                : FrontCredentialHelpers.git(request, input: input.bytes, environment: environment, read: read, mark: mark, now: FrontInputs.now(),
                                             directoryProfile: FrontInputs.directoryProfile)
        case .docker:
            // The full program reads the configuration before stdin: a file it refuses is
            // refused before anything is read.
            guard let profiles = FrontCredentialHelpers.profiles(environment, read: read) else { return nil }
            input = StandardInputReader.read(limit: wire.inputLimit, stopAtBlankLine: wire.endsAtBlankLine)
            answer = input.overLimit ? nil
                : FrontCredentialHelpers.docker(request, input: input.bytes, profiles: profiles, environment: environment,
                                                read: read, mark: mark, now: FrontInputs.now(), directoryProfile: FrontInputs.directoryProfile)
        }
        if let answer {
            StandardOutput.write(answer)
            return 0
        }
        // Hand off with nothing consumed: what was read becomes the full program's stdin again.
        guard FrontInput.putBack(input.bytes) else {
            StandardError.write("error: cannot hand standard input to the full kcauth program\n")
            return 1
        }
        return nil
    }
}
