import KCAuthCLI
#if canImport(Glibc)
import Glibc
#endif

// The full program. Installed as libexec/kcauth/kcauth-full; the small static front
// (Sources/kcauth) answers a warm-cache `kcauth token` itself and execs this for everything else,
// with the same argv — argv[0] is the name the user typed — and the same environment. Run directly,
// it behaves the same.
// First, before anything can start a thread (libsecret's GDBus worker, libcurl's resolver inherit
// the signal mask of the thread that starts them): the signals kcauth ends on or passes on are
// taken for the whole process, in one place (KCAuthMain.takeSignals, docs/security.md "Endings").
KCAuthMain.takeSignals()
// Run as git-credential-kcauth or docker-credential-kcauth, kcauth is that helper (ProgramName).
let arguments = ProgramName.arguments(CommandLine.arguments)
exit(KCAuthMain.run(arguments: arguments, environment: ProcessEnvironment.current, console: StandardConsole()))
