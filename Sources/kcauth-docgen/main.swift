// kcauth-docgen: the build-time generator of kcauth's man page, from the same command table
// that drives help and completions. A build tool, not part of the `kcauth` product, so the
// shipped binary carries no roff generator. scripts/generate-docs runs `kcauth-docgen man`
// and `kcauth-docgen settings-table` (the settings catalogue as docs/configuration.md's table).
import KCAuthCLI
import KCAuthDocGen
#if canImport(Glibc)
import Glibc
#endif

let console = StandardConsole()
switch Array(CommandLine.arguments.dropFirst()) {
case ["man"]:
    console.out(ManPage.render())
case ["settings-table"]:
    console.out(SettingsTable.markdown())
default:
    console.err("usage: kcauth-docgen man|settings-table    (kcauth(1) in roff; the settings table of docs/configuration.md)\n")
    exit(2)
}
