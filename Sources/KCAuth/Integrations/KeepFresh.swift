import KCAuthCore

/// `exec --keep-fresh`: for a command that runs longer than a token lives and reads its token
/// from a file (Terraform providers, Vault-agent-style sinks, long transfers). kcauth stays the
/// command's parent, keeps the access token in a 0600 file (its path in `KCAUTH_TOKEN_FILE`),
/// rewrites it atomically before it expires, and removes it when the command ends, however it
/// ends. Signals sent to kcauth are passed on; the command's exit status (or its signal) is
/// kcauth's, as with `exec`.
public struct KeepFresh: Sendable {
    public static let variable = "KCAUTH_TOKEN_FILE"
    /// After a failed renewal, try again this soon.
    static let retrySeconds = 5.0
    /// How often the command and the signals are looked at.
    static let pollSeconds = 0.1

    public enum Event: Sendable {
        /// A renewal failed; the next try is in a few seconds.
        case renewalFailed(path: String, KCAuthError)
    }

    let context: KCAuthContext
    let tokens: ExecTokens

    public init(context: KCAuthContext, tokens: ExecTokens) {
        self.context = context
        self.tokens = tokens
    }

    /// Runs `command` to its end and returns its exit status (128+N for signal N), the token
    /// file removed. `tokenFile`: an absolute path where nothing is yet, else a file in a fresh
    /// private directory on memory-backed storage. Throws why there is no token (or no place for
    /// it) before the command starts, or a ``CommandStartFailure``.
    public func run(_ command: [String], minValid: Double, tokenFile: String?, notify: (Event) -> Void) throws -> Int32 {
        precondition(!command.isEmpty)
        let files = context.adapters.tokenFiles, launcher = context.adapters.launcher, clock = context.clock
        files.removeLeftovers()
        if let tokenFile, files.exists(tokenFile) {
            // The file is removed when COMMAND ends: one that was there would be lost with it.
            throw KCAuthError(.usage, "\(Sanitize.oneLine(tokenFile, limit: 200)) exists; "
                              + "kcauth keeps the token only in a new file of its own, which it removes when the command ends",
                              hint: "name a path where nothing is yet")
        }
        var token = try fetch(minValid)  // exit 4 before COMMAND starts, as exec

        // From the file's first byte to its removal, the signals are kept for COMMAND: an ending
        // in between would leave the file behind.
        launcher.holdSignals(true)
        defer { launcher.holdSignals(false) }
        let privateDirectory = tokenFile == nil ? try files.makePrivateDirectory() : nil
        let path = tokenFile ?? privateDirectory! + "/token"
        defer { files.remove(path, directory: privateDirectory) }
        try files.write(token.accessToken.reveal(), to: path)

        var environment = context.environment
        environment[Self.variable] = path
        let child = try launcher.start(command, environment: environment)
        // The margin is fixed when a token arrives: recomputed from what is left, it would shrink
        // with it and the renewal would never come due.
        var margin = self.margin(token, minValid: minValid)
        var renewAt = renewal(token, margin: margin)
        while true {
            if let status = child.poll() { return status }
            if let signal = launcher.takePendingSignal() { child.send(signal) }
            if clock.instant.epochSeconds >= renewAt {
                do {
                    token = try fetch(margin + 1)
                    try files.write(token.accessToken.reveal(), to: path)
                    margin = self.margin(token, minValid: minValid)
                    renewAt = renewal(token, margin: margin)
                } catch {
                    notify(.renewalFailed(path: path, KCAuthError.wrapping(error)))
                    renewAt = clock.instant.epochSeconds + Self.retrySeconds
                }
            }
            context.adapters.sleeper.sleep(Self.pollSeconds)
        }
    }

    /// Ends kcauth the way the command ended: killed by the same signal (after the file is gone:
    /// call this once ``run(_:minValid:tokenFile:notify:)`` has returned). Returns the status
    /// when the command exited (or the signal did not end kcauth).
    public func end(like status: Int32) -> Int32 {
        if status > 128, status - 128 < 32 { context.adapters.launcher.end(bySignal: status - 128) }
        return status
    }

    private func fetch(_ minValid: Double) throws -> IssuedToken {
        try tokens.token(minValid: minValid, idToken: false).token
    }

    /// How long before expiry the file is rewritten: the minimum validity asked for, or a third
    /// of the token's life when that is shorter (a 5-second token is renewed when 1.7 s are left).
    func margin(_ token: IssuedToken, minValid: Double) -> Double {
        guard let expiry = token.expiresAt else { return minValid }
        let lifetime = max(expiry.seconds(since: context.clock.instant), 0)
        return min(minValid, lifetime / 3)
    }

    func renewal(_ token: IssuedToken, margin: Double) -> Double {
        guard let expiry = token.expiresAt else { return .infinity }
        return expiry.epochSeconds - margin
    }
}
