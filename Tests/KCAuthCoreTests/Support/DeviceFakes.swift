import Foundation
import Testing
@testable import KCAuthCore

/// A sleeper on a fake monotonic clock: `sleep` only moves the clock, and every sleep is recorded.
final class FakeSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var time: Double
    private(set) var sleeps: [Double] = []

    init(start: Double = 0) { time = start }

    func monotonicNow() -> Double { lock.withLock { time } }
    func sleep(_ seconds: Double) {
        lock.withLock {
            sleeps.append(seconds)
            time += seconds
        }
    }
    /// Time passing inside a call (a slow HTTP answer).
    func advance(_ seconds: Double) { lock.withLock { time += seconds } }
    var totalSlept: Double { lock.withLock { sleeps.reduce(0, +) } }
}

/// The token endpoint of a device sign-in: answers from a script, one answer per poll (the last
/// one repeats), and notes the fake time of every poll and the form it carried.
final class PollingEndpoint: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let sleeper: FakeSleeper
    private var answers: [HTTPResponse]
    /// Seconds each answer takes to arrive.
    var latency: Double = 0
    private(set) var pollTimes: [Double] = []
    private(set) var forms: [[String: String]] = []

    init(sleeper: FakeSleeper, answers: [HTTPResponse]) {
        self.sleeper = sleeper
        self.answers = answers
    }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let answer: HTTPResponse = lock.withLock {
            pollTimes.append(sleeper.monotonicNow())
            forms.append(formFields(of: request))
            return answers.count > 1 ? answers.removeFirst() : answers[0]
        }
        sleeper.advance(latency)
        return answer
    }

    static func error(_ code: String, _ description: String? = nil, status: Int = 400) -> HTTPResponse {
        let body = description.map { #"{"error":"\#(code)","error_description":"\#($0)"}"# } ?? #"{"error":"\#(code)"}"#
        return HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Array(body.utf8))
    }

    static let pending = error("authorization_pending", "The authorization request is still pending")
    static let slowDown = error("slow_down", "Slow down")
    static let tokens = HTTPResponse(status: 200, headers: ["content-type": "application/json"],
                                     body: Array(Fixtures.tokenResponse().utf8))
}

enum DeviceFixtures {
    static let deviceEndpoint = Fixtures.issuer + "/protocol/openid-connect/auth/device"

    static func authorization(complete: Bool = true, expiresIn: Int = 600, interval: Int? = 5) -> String {
        var fields = [#""device_code":"dc-1""#, #""user_code":"WDJB-MJHT""#,
                      #""verification_uri":"https://sso.example.test/realms/demo/device""#, #""expires_in":\#(expiresIn)"#]
        if complete { fields.append(#""verification_uri_complete":"https://sso.example.test/realms/demo/device?user_code=WDJB-MJHT""#) }
        if let interval { fields.append(#""interval":\#(interval)"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The discovery document without `device_authorization_endpoint`.
    static var discoveryWithoutDevice: String {
        Fixtures.discovery.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("device_authorization_endpoint") }.joined(separator: "\n")
    }
}
