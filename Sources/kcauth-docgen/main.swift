// kcauth-docgen: the build-time generator of kcauth's man page, from the same command table
// that drives help and completions. A build tool, not part of the `kcauth` product, so the
// shipped binary carries no roff generator. scripts/generate-docs runs `kcauth-docgen man`.
import KCAuthCLI
import KCAuthDocGen
#if canImport(Glibc)
import Glibc
#endif

let console = StandardConsole()
guard Array(CommandLine.arguments.dropFirst()) == ["man"] else {
    console.err("usage: kcauth-docgen man    (prints kcauth(1) in roff; scripts/generate-docs writes man/kcauth.1)\n")
    exit(2)
}
console.out(ManPage.render())
