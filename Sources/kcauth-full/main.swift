import KCAuthCLI
#if canImport(Glibc)
import Glibc
#endif

// The full program. Installed as libexec/kcauth/kcauth-full; the small static front
// (Sources/kcauth) answers a warm-cache `kcauth token` itself and execs this for everything else,
// with the same argv — argv[0] is the name the user typed (kcauth, or a helper's symlink name) — and
// the same environment. Run directly, it behaves the same.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(KCAuthMain.run(arguments: arguments, environment: ProcessEnvironment.current, console: StandardConsole()))
