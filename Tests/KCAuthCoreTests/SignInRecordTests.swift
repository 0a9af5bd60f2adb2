import Testing
@testable import KCAuthCore

/// The sign-in lock's record (`SignInLock`): one line, what a waiter reads back.
@Suite struct SignInRecordTests {
    @Test func roundTripsEveryState() {
        for record in [SignInRecord(pid: 4711, startedAt: 1_800_000_000),
                       SignInRecord(pid: 4711, startedAt: 1_800_000_000, outcome: .succeeded),
                       SignInRecord(pid: 1, startedAt: 0, outcome: .failed(.timedOut)),
                       SignInRecord(pid: 99, startedAt: 5, outcome: .failed(.accessDenied))] {
            #expect(SignInRecord(record.encoded) == record)
        }
        #expect(SignInRecord(pid: 4711, startedAt: 1_800_000_000.9).encoded == "running 4711 1800000000\n")
    }

    @Test func refusesWhatItDidNotWrite() {
        for text in ["", "running", "running x 1", "running 0 1", "running -3 1", "ended 5 1", "paused 5 1", "running 5 1 extra"] {
            #expect(SignInRecord(text) == nil, "\(text)")
        }
        #expect(SignInRecord("ended 5 1 somethingNew")?.outcome == .failed(.internal), "an unknown code is a failure")
    }
}
