import KCAuthFastPath
#if canImport(Glibc)
import Glibc
#endif

// The shipped `kcauth`: a small static executable (Package.swift links it -static-executable), so a
// warm-cache `kcauth token` costs about as much as starting /bin/true (docs/performance.md). Only
// the fast path lives here; for everything it declines, the full program (kcauth-full, dynamically
// linked: libsecret cannot be dlopen()ed from a static program) replaces this process.
//
// The fast path serves only the name `kcauth` itself: other names (git-credential-kcauth and
// docker-credential-kcauth symlinks) mean other commands, which the full program dispatches on.
let arguments = Array(CommandLine.arguments.dropFirst())
if FastTokenPath.servesName(CommandLine.arguments.first ?? ""), let status = FastTokenPath.serve(arguments: arguments) {
    exit(status)
}
exit(HandOff.toFullProgram())
