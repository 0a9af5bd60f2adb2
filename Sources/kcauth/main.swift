import KCAuthCLI
#if canImport(Glibc)
import Glibc
#endif

exit(KCAuthMain.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current, console: StandardConsole()))
