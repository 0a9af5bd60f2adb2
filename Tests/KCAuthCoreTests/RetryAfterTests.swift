import Testing
@testable import KCAuthCore

/// `Retry-After` on a 429 or 503 (`RetryAfter`): hostile input, range-checked.
@Suite struct RetryAfterTests {
    @Test func retryAfterIsTakenWhereItMakesSense() {
        func seconds(_ status: Int, _ value: String?, date: String? = nil) -> Double? {
            var headers: [String: String] = [:]
            if let value { headers["retry-after"] = value }
            if let date { headers["date"] = date }
            return RetryAfter.seconds(in: HTTPResponse(status: status, headers: headers))
        }
        #expect(seconds(429, "7") == 7)
        #expect(seconds(503, " 120 ") == 120)
        #expect(seconds(503, "0") == 0)
        #expect(seconds(500, "7") == nil, "only on 429 and 503")
        #expect(seconds(429, nil) == nil && seconds(429, "") == nil)
        #expect(seconds(429, "-1") == nil && seconds(429, "1.5") == nil && seconds(429, "1e3") == nil && seconds(429, "0x10") == nil)
        #expect(seconds(429, "86400") == 86_400 && seconds(429, "86401") == nil)
        #expect(seconds(429, "99999999999999999999999") == nil)
        #expect(seconds(503, "Wed, 21 Oct 2015 07:28:30 GMT", date: "Wed, 21 Oct 2015 07:28:00 GMT") == 30,
                "a date counts from the answer's own Date")
        #expect(seconds(503, "Wed, 21 Oct 2015 07:28:30 GMT") == nil, "no Date: nothing to count from")
        #expect(seconds(503, "Wed, 21 Oct 2015 07:28:00 GMT", date: "Wed, 21 Oct 2015 07:28:30 GMT") == 0)
        #expect(seconds(503, "Thu, 22 Oct 2015 07:28:30 GMT", date: "Wed, 21 Oct 2015 07:28:00 GMT") == nil, "more than a day")
        #expect(seconds(503, "soon") == nil)
    }
}
