// A tiny Swift tool that signs in, uses and ends a session through the KCAuth library alone:
//
//   swift run KCAuthExample [login|token|logout] [PROFILE]
//
// `login` signs in with the profile's saved settings (or KCAUTH_ISSUER and KCAUTH_CLIENT_ID),
// opening the browser like `kcauth login`; `token` (the default) prints how long the access
// token stays valid, refreshing it first if needed (never the token itself); `logout` ends the
// session at the provider and deletes it. The `kcauth` command sees the same session.
import KCAuth
#if canImport(Glibc)
import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
let verb = ["login", "token", "logout"].contains(arguments.first ?? "") ? arguments.removeFirst() : "token"
let profileName = arguments.first

func fail(_ error: KCAuthError) -> Never {
    var line = "profile unavailable: \(error.message)"
    if let hint = error.hint {
        line += "; \(hint)"
    } else if case .signIn(let profile)? = error.remedy {
        line += "; run `kcauth login" + (profile == "default" ? "`" : " --profile \(profile)`")
    }
    print(line)
    exit(error.code == .loginRequired ? 4 : 1)
}

do {
    let context = KCAuthContext()
    let settings = try context.resolve(SettingsFlags(profile: profileName))
    switch verb {
    case "login":
        // The flow is the profile's, else chosen for this machine; a valid session is kept.
        let result = try context.login(SettingsFlags(profile: settings.name)).run(Login.Options()) { event in
            if case .flow(.authorizationURL(let url)) = event { print("sign in at: \(url)") }
            if case .flow(.deviceCode(let prompt)) = event { print("open \(prompt.linkToOpen) and confirm \(prompt.userCode)") }
        }
        switch result {
        case .signedIn(let session):
            print("profile '\(settings.name)': signed in to \(session.state.issuer) as \(session.claims.displayName)")
        case .clientSignedIn(let session):
            print("profile '\(settings.name)': the client signed in to \(session.state.issuer)")
        case .alreadySignedIn:
            print("profile '\(settings.name)': already signed in")
        }
    case "logout":
        let failures = try context.logout().run(selected: settings.name, Logout.Options()) { _ in }
        if let failure = failures.first { fail(failure.error) }
        print("profile '\(settings.name)': signed out")
    default:
        let provider = try TokenProvider(profile: settings.name, context: context)
        let token = try await provider.freshToken(minValid: .seconds(60))
        let remaining = token.expiresAt.map { "\(Int($0.seconds(since: context.clock.instant))) s" } ?? "an unknown time"
        print("profile '\(provider.profile)': a \(token.tokenType) token from \(token.issuer), valid for \(remaining)")
    }
} catch let error as KCAuthError {
    fail(error)
}
