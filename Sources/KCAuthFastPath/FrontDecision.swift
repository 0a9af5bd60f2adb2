import KCAuthContract

/// What the front did with a command (said in a trace, `--debug`): served it, or handed it to
/// `kcauth-full`, and by which rule.
enum FrontDecision: Equatable {
    case served(String, profile: String)
    case handedOff(FrontReason)
}

/// The cache lookup's outcome: the token, or the rule that declined it.
enum FrontLookup: Equatable {
    case found(CacheRecord, profile: String)
    case declined(FrontReason)
}

/// Why the front hands a command to `kcauth-full`: the words of the front's trace line.
enum FrontReason: String, Equatable {
    case command = "a command the front does not serve"
    case arguments = "arguments the front does not take"
    case environment = "a variable the front leaves to kcauth-full"
    case configuration = "the configuration file is absent, refused or not read by the front"
    case directoryProfile = "the directory's .kcauth-profile is ignored"
    case profile = "the profile's settings are not read by the front"
    case runtimeDirectory = "no private runtime directory"
    case noCache = "no cached token"
    case otherSession = "the cached token is of another store, issuer or client"
    case sessionMark = "the session was ended or replaced (session mark)"
    case expiring = "the cached token expires too soon"
    case dpop = "the cached token is DPoP-bound"
    case execInfo = "KUBERNETES_EXEC_INFO is kcauth-full's to read"
    case format = "the output format is kcauth-full's"
    case helperRequest = "a helper request the front does not answer"
    case commandNotStarted = "the command could not be started"
    case trace = "the trace setting or KCAUTH_DEBUG_FILE is kcauth-full's to refuse"
}
