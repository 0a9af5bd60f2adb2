import KCAuthCLI
import KCAuthFastPath
#if canImport(Glibc)
import Glibc
#endif

// Run as git-credential-kcauth or docker-credential-kcauth, kcauth is that helper (ProgramName).
let arguments = ProgramName.arguments(CommandLine.arguments)
// A warm-cache `kcauth token` is answered before anything else is set up; anything the fast path
// does not fully understand goes to the full program (Sources/KCAuthFastPath/FastTokenPath.swift).
if let status = FastTokenPath.serve(arguments: arguments) { exit(status) }
exit(KCAuthMain.run(arguments: arguments, environment: ProcessEnvironment.current, console: StandardConsole()))
