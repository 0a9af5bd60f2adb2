// A tiny Swift tool that shares the `kcauth login` session through the KCAuth library:
//
//   swift run KCAuthExample [PROFILE]
//
// prints how long the profile's access token stays valid (refreshing it first if needed), or
// the reason there is none. It never prints the token itself.
import KCAuth
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
do {
    let provider = try TokenProvider(profile: arguments.first)
    let token = try await provider.freshToken(minValid: .seconds(60))
    let remaining = token.expiresAt.map { "\(Int($0 - SystemTime.now())) s" } ?? "an unknown time"
    print("profile '\(provider.profile)': a \(token.tokenType) token from \(token.issuer), valid for \(remaining)")
} catch let error as KCAuthError {
    print("profile unavailable: \(error.message)" + (error.hint.map { "; \($0)" } ?? ""))
    exit(error.code == .loginRequired ? 4 : 1)
}

enum SystemTime {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
