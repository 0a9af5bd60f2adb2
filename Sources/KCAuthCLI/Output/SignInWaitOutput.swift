import KCAuth
import KCAuthCore

/// What a caller says while another process signs in to the same profile (stderr, once).
enum SignInWaitOutput {
    static func report(_ event: OneSignIn.Event, profile: String, now: Instant, console: any Console) {
        switch event {
        case .waiting(let record?):
            let ago = max(0, Int(now.epochSeconds - record.startedAt))
            console.err("kcauth: waiting for the sign-in already in progress for profile '\(profile)' "
                        + "(process \(record.pid), started \(ago) s ago)…\n")
        case .waiting(nil):
            console.err("kcauth: waiting for the sign-in already in progress for profile '\(profile)'…\n")
        case .askedToStop(let record):
            console.err("kcauth: asked the sign-in in progress for profile '\(profile)' (process \(record.pid)) to stop; signing in here.\n")
        }
    }
}
