import KCAuthCore

/// The people's account of one profile's logout (stderr).
enum LogoutOutput {
    static func report(_ o: Logout.Outcome, local: Bool, console: any Console) {
        guard o.wasSignedIn else {
            console.err("Profile '\(o.profile)' was not signed in; nothing to delete.\n")
            return
        }
        let at = o.issuer.map { " at \($0)" } ?? ""
        if local {
            console.err("Deleted the stored session of profile '\(o.profile)'. The session\(at) stays alive until it expires.\n")
        } else if o.serverSessionEnded {
            console.err("Signed out of profile '\(o.profile)': the session\(at) is ended and the stored tokens are deleted.\n")
        } else {
            console.err("Deleted the stored session of profile '\(o.profile)', but the session\(at) may still be alive.\n")
        }
        if o.browser == .ended { console.err("The browser is signed out too.\n") }
    }
}
