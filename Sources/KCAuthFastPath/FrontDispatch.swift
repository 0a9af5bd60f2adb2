#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// What the front serves itself (issues 13, 17): `kcauth token`, kubectl's exec plugin call (the
/// same command with `KUBERNETES_EXEC_INFO`), the git and docker helpers' `get` and `kcauth exec`,
/// each only with a warm token and inputs the full program accepts. Everything else returns and
/// the caller execs the full program, with standard input as it was.
public enum FrontDispatch {
    /// The arguments as the full program sees them: `git-credential-kcauth get` is
    /// `kcauth git-credential get` (ProgramName in the full program); nil for another name.
    public static func arguments(argv0: String, _ rest: [String]) -> [String]? {
        let name = argv0.split(separator: "/").last.map(String.init) ?? argv0
        switch name {
        case "kcauth": return rest
        case "git-credential-kcauth": return ["git-credential"] + rest
        case "docker-credential-kcauth": return ["docker-credential"] + rest
        default: return nil
        }
    }

    /// Serves the command if it can and returns its exit status; nil: run the full program.
    public static func serve(argv0: String, arguments rest: [String]) -> Int32? {
        guard let arguments = arguments(argv0: argv0, rest), let first = arguments.first else { return nil }
        switch first {
        case "token":
            return FastTokenPath.serve(arguments: arguments)
        case "exec":
            FrontExec.serve(arguments: arguments)   // returns only when it did not start the command
            return nil
        case "git-credential", "docker-credential":
            guard let request = FrontCredentialHelpers.Request(arguments) else { return nil }
            return serveHelper(request)
        default:
            return nil
        }
    }

    static func serveHelper(_ request: FrontCredentialHelpers.Request) -> Int32? {
        let environment = FrontInputs.environment, read = FrontInputs.read
        let mark: SessionMark.Lookup = { SessionMark.read(profile: $0, binding: $1) }
        let answer: String?
        let input: (bytes: [UInt8], overLimit: Bool)
        switch request.kind {
        case .git:
            input = StandardInputReader.read(limit: 256 * 1024, stopAtBlankLine: true)
            answer = input.overLimit ? nil
                : FrontCredentialHelpers.git(request, input: input.bytes, environment: environment, read: read, mark: mark, now: FrontInputs.now(),
                                             directoryProfile: FrontInputs.directoryProfile)
        case .docker:
            // The full program reads the configuration before stdin: a file it refuses is
            // refused before anything is read.
            guard let profiles = FrontCredentialHelpers.profiles(environment, read: read) else { return nil }
            input = StandardInputReader.read(limit: 64 * 1024, stopAtBlankLine: false)
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
