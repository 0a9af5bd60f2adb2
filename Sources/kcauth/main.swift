import KCAuthCLI
#if canImport(Glibc)
import Glibc
#endif

exit(KCAuthMain.run(arguments: ProgramName.arguments(CommandLine.arguments), environment: ProcessEnvironment.current, console: StandardConsole()))
