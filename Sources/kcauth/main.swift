import KCAuthFastPath
#if canImport(Glibc)
import Glibc
#endif

// The shipped `kcauth`: a small static executable (Package.swift links it -static-executable), so a
// warm-cache `kcauth token` costs about as much as starting /bin/true (docs/performance.md). The
// front serves warm tokens itself — `kcauth token`, kubectl's exec plugin call, the git and docker
// helpers' `get`, `kcauth exec` — and for everything else the full program (kcauth-full,
// dynamically linked: libsecret cannot be dlopen()ed from a static program) replaces this process,
// seeing argv[0] as given (`git-credential-kcauth` and `docker-credential-kcauth` are links to it).
if let status = FrontDispatch.serve(argv0: CommandLine.arguments.first ?? "", arguments: Array(CommandLine.arguments.dropFirst())) {
    exit(status)
}
exit(HandOff.toFullProgram())
