import Synchronization

/// What servers told this process about its DPoP proofs: one nonce per server (RFC 9449 §8.2:
/// the newest replaces the last) and the offset of their clock from ours. Shared by every copy
/// of a ``DPoPProver``: the refresh, userinfo and revocation of one command reuse what the first
/// answer said, so only the first request of a process pays for a nonce round trip.
final class DPoPMemory: Sendable {
    private struct Contents {
        var nonces: [String: String] = [:]
        var clockOffset: Double = 0
    }

    private let contents = Mutex(Contents())

    func nonce(for origin: String) -> String? { contents.withLock { $0.nonces[origin] } }

    func setNonce(_ nonce: String, for origin: String) { contents.withLock { $0.nonces[origin] = nonce } }

    var clockOffset: Double { contents.withLock { $0.clockOffset } }

    func setClockOffset(_ offset: Double) { contents.withLock { $0.clockOffset = offset } }
}
