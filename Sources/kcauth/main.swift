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
// No top-level variables here: a global of main.swift is main-actor state, and its first use
// starts Swift concurrency's executors (libdispatch), ≈0.1 MiB of the front's RSS.
if let status = FrontDispatch.serveCommandLine() {
    exit(status)
}
exit(HandOff.toFullProgram())
