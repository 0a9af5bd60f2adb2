import Glibc
import KCAuthCore
import KCAuthSystem

/// `kcauth exec --keep-fresh`: for a command that runs longer than a token lives and reads its
/// token from a file (Terraform providers, Vault-agent-style sinks, long transfers). kcauth stays
/// the command's parent, keeps the access token in a 0600 file (its path in `KCAUTH_TOKEN_FILE`),
/// rewrites it atomically before it expires, and removes it when the command ends, however it
/// ends. Signals sent to kcauth are passed on; the command's exit status (or its signal) is
/// kcauth's, as with `exec`.
struct KeepFresh {
    static let variable = "KCAUTH_TOKEN_FILE"
    /// Signals passed on to the command. A terminal's Ctrl-C reaches the command itself (one
    /// process group); kcauth only holds it back from itself.
    static let passedOn: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]
    /// After a failed renewal, try again this soon.
    static let retrySeconds = 5.0

    let command: [String]
    let environment: [String: String]
    let minValid: Double
    let tokenFile: String?
    let fetch: (Double) throws -> IssuedToken
    let clock: any TimeSource
    let console: any Console

    /// Runs the command to its end; returns its exit status, or does not return when it died of a
    /// signal (kcauth dies of the same one, after removing the file).
    func run() throws -> Int32 {
        var token = try fetch(minValid)  // exit 4 before COMMAND starts, as exec
        var privateDirectory: String?
        let path: String
        if let tokenFile {
            path = tokenFile
        } else {
            let directory = try PrivateRunDirectory.create(prefix: "token-")
            privateDirectory = directory
            path = directory + "/token"
        }
        defer {
            unlink(path)
            if let privateDirectory { rmdir(privateDirectory) }
        }
        try AtomicFile.write(token.accessToken, to: path)

        hold(true)
        defer { hold(false) }
        var childEnvironment = environment
        childEnvironment[Self.variable] = path
        let child: ChildProcess
        do {
            child = try ChildProcess.start(command, environment: childEnvironment)
        } catch {
            let missing = access(command[0], X_OK) != 0 && !command[0].contains("/")
            console.err("error: cannot run '\(Sanitize.oneLine(command[0], limit: 200))'\n")
            throw ReportedFailure(status: ExitStatus(code: missing ? 127 : 126, meaning: "the command could not be started"))
        }
        // The margin is fixed when a token arrives: recomputed from what is left, it would shrink
        // with it and the renewal would never come due.
        var margin = self.margin(token)
        var renewAt = renewal(token, margin: margin)
        while true {
            if let status = child.poll() { return status }
            if let signal = pending() { kill(child.pid, signal) }
            if clock.instant.epochSeconds >= renewAt {
                do {
                    token = try fetch(margin + 1)
                    try AtomicFile.write(token.accessToken, to: path)
                    margin = self.margin(token)
                    renewAt = renewal(token, margin: margin)
                } catch {
                    console.err("kcauth: could not renew the token in \(path): \(KCAuthError.wrapping(error).message); trying again\n")
                    renewAt = clock.instant.epochSeconds + Self.retrySeconds
                }
            }
            usleep(100_000)
        }
    }

    /// How long before expiry the file is rewritten: --min-valid, or a third of the token's
    /// life when that is shorter (a 5-second token is renewed when 1.7 s are left).
    func margin(_ token: IssuedToken) -> Double {
        guard let expiry = token.expiresAt else { return minValid }
        let lifetime = max(expiry.seconds(since: clock.instant), 0)
        return min(minValid, lifetime / 3)
    }

    func renewal(_ token: IssuedToken, margin: Double) -> Double {
        guard let expiry = token.expiresAt else { return .infinity }
        return expiry.epochSeconds - margin
    }

    /// Ends kcauth the way the command ended: killed by the same signal (after the file is
    /// gone: the caller runs this once ``run()`` has returned), or with its status.
    static func exit(like status: Int32) throws {
        if status > 128, status - 128 < 32 {
            let sig = status - 128
            signal(sig, SIG_DFL)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, sig)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            raise(sig)
        }
        if status != 0 { throw ReportedFailure(status: ExitStatus(code: status, meaning: "the command's exit status")) }
    }

    func hold(_ on: Bool) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in Self.passedOn { sigaddset(&set, s) }
        pthread_sigmask(on ? SIG_BLOCK : SIG_UNBLOCK, &set, nil)
    }

    func pending() -> Int32? {
        var set = sigset_t()
        sigemptyset(&set)
        for s in Self.passedOn { sigaddset(&set, s) }
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        var info = siginfo_t()
        let taken = sigtimedwait(&set, &info, &zero)
        // A signal from the terminal (Ctrl-C, Ctrl-\\, a hang-up: sent by the kernel to the whole
        // process group) reached the command already: passing it on would make it two (and
        // Terraform, for one, takes a second interrupt as "stop now"). One sent to kcauth alone
        // by a process (kill, a supervisor) is passed on.
        guard taken > 0, info.si_code <= 0 else { return nil }
        return taken
    }
}
