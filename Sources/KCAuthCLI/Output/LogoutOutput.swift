import KCAuth
import KCAuthCore

/// The people's account of a logout (stderr).
enum LogoutOutput {
    static func report(_ event: Logout.Event, local: Bool, now: Instant, console: any Console) {
        switch event {
        case .signedOut(let outcome):
            report(outcome, local: local, now: now, console: console)
        case .forgot(let profile, let wasDefault):
            console.err("Forgot the settings of profile '\(profile)'" + (wasDefault ? "; the default profile is 'default' again" : "") + ".\n")
        case .nothingConfigured(let path):
            console.err("No profiles in \(path); nothing to sign out.\n")
        case .browser(_, .openingBrowser):
            console.err("Opening the browser to sign out at the provider…\n")
        case .browser(_, .browserFailed(let error, let url)):
            console.err("Could not start a browser: \(Sanitize.oneLine(MessageWords.message(error))). To sign out there, open this one-time URL "
                        + "in a browser on this machine:\n  \(url.reveal())\n")
        case .browser(_, .waiting(let redirectURI, let timeout)):
            console.err("Waiting for the provider to return to \(redirectURI) (up to \(Int(timeout)) s)…\n")
        }
    }

    static func report(_ o: Logout.Outcome, local: Bool, now: Instant, console: any Console) {
        guard o.wasSignedIn else {
            console.err("Profile '\(o.profile)' was not signed in; nothing to delete.\n")
            return
        }
        if let problem = o.lockProblem {
            console.err("note: signing out without the refresh lock of profile '\(o.profile)': \(Sanitize.oneLine(MessageWords.message(problem)))\n")
        }
        let at = o.issuer.map { " at \($0)" } ?? ""
        if local {
            console.err("Deleted the stored session of profile '\(o.profile)'. The session\(at) stays alive until it expires.\n")
        } else if o.serverSessionEnded {
            console.err("Signed out of profile '\(o.profile)': the session\(at) is ended and the stored tokens are deleted.\n")
        } else if o.providerCannotEndSession {
            let until = o.refreshExpiresAt.map { "its refresh token stays valid until \(RelativeTime.stamp($0, now: now))" }
                ?? "its refresh token stays valid until the provider expires it"
            console.err("Signed out of profile '\(o.profile)': the stored tokens are deleted. The provider\(at) offers no way "
                        + "to end the session from here (no end-session or revocation endpoint); \(until).\n")
        } else {
            console.err("Deleted the stored session of profile '\(o.profile)', but the session\(at) may still be alive.\n")
        }
        if o.browser == .ended { console.err("The browser is signed out too.\n") }
    }
}
