import Foundation
import Testing
@_exported import KCAuthCore

/// The token endpoint of a device sign-in: answers from a script, one answer per poll (the last
/// one repeats), and notes the fake time of every poll and the form it carried.
public final class PollingEndpoint: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let sleeper: FakeSleeper
    private var answers: [HTTPResponse]
    /// Seconds each answer takes to arrive.
    public var latency: Double = 0
    public private(set) var pollTimes: [Double] = []
    public private(set) var forms: [[String: String]] = []

    public init(sleeper: FakeSleeper, answers: [HTTPResponse]) {
        self.sleeper = sleeper
        self.answers = answers
    }

    /// Polls (by their 0-based number) that fail in the transport, as a connection refused or
    /// reset does, instead of taking the next answer.
    public var failures: [Int: KCAuthError] = [:]

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let answer: Result<HTTPResponse, KCAuthError> = lock.withLock {
            pollTimes.append(sleeper.monotonicNow())
            forms.append(formFields(of: request))
            if let failure = failures[pollTimes.count - 1] { return .failure(failure) }
            return .success(answers.count > 1 ? answers.removeFirst() : answers[0])
        }
        sleeper.advance(latency)
        return try answer.get()
    }

    /// What libcurl's adapter throws when nothing listens on the provider's port.
    public static var connectionRefused: KCAuthError {
        var error = KCAuthError(.network, "cannot connect to sso.example.test:443: connection refused")
        error.transient = true
        return error
    }

    public static func error(_ code: String, _ description: String? = nil, status: Int = 400) -> HTTPResponse {
        let body = description.map { #"{"error":"\#(code)","error_description":"\#($0)"}"# } ?? #"{"error":"\#(code)"}"#
        return HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Array(body.utf8))
    }

    public static let pending = error("authorization_pending", "The authorization request is still pending")
    public static let slowDown = error("slow_down", "Slow down")
    public static let tokens = HTTPResponse(status: 200, headers: ["content-type": "application/json"],
                                     body: Array(Fixtures.tokenResponse().utf8))
}
