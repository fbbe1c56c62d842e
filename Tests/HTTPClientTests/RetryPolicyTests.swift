import FleetErrors
import HTTPClient
import Testing
import FleetRandom

@Suite("Retry policy")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .seconds(1))

    @Test("the ceiling doubles from the base and stops at the cap",
          arguments: [(1, 100), (2, 200), (3, 400), (4, 800), (5, 1000), (6, 1000), (70, 1000), (Int.max, 1000)])
    func ceiling(attempt: Int, milliseconds: Int) {
        #expect(policy.delayCeiling(forAttempt: attempt) == .milliseconds(milliseconds))
    }

    @Test("delays are full jitter: anywhere from zero to the ceiling")
    func jitterBounds() {
        var random = SeededRandom(seed: 42)
        for attempt in 1...6 {
            let ceiling = policy.delayCeiling(forAttempt: attempt)
            let delays = (0..<1000).map { _ in policy.delay(forAttempt: attempt, using: &random) }
            #expect(delays.allSatisfy { $0 >= .zero && $0 <= ceiling })
            // Spread over the whole range, not clustered at the ceiling (as plain exponential backoff would be).
            #expect(delays.contains { $0 < ceiling / 10 })
            #expect(delays.contains { $0 > ceiling * 9 / 10 })
        }
    }

    @Test("the random source is injected: the same seed gives the same delays")
    func seeded() {
        var first = SeededRandom(seed: 7)
        var second = SeededRandom(seed: 7)
        var other = SeededRandom(seed: 8)
        let a = (1...10).map { policy.delay(forAttempt: $0, using: &first) }
        let b = (1...10).map { policy.delay(forAttempt: $0, using: &second) }
        let c = (1...10).map { policy.delay(forAttempt: $0, using: &other) }
        #expect(a == b)
        #expect(a != c)
    }

    @Test("a zero base never waits")
    func zeroBase() {
        var random = SeededRandom(seed: 1)
        let immediate = RetryPolicy(maxAttempts: 3, baseDelay: .zero, maxDelay: .seconds(1))
        #expect(immediate.delay(forAttempt: 3, using: &random) == .zero)
    }

    @Test("only retryable codes, and a non-idempotent call only if it was certainly not sent",
          arguments: [
              (GRPCCode.unavailable, true, true, true),
              (.unavailable, true, false, true),
              (.unavailable, false, false, true),
              (.unavailable, false, true, false),
              (.deadlineExceeded, true, true, true),
              (.deadlineExceeded, false, true, false),
              (.aborted, false, false, true),
              (.invalidArgument, true, false, false),
              (.notFound, true, false, false),
              (.permissionDenied, true, false, false),
              (.internal, true, false, false),
          ])
    func decisions(code: GRPCCode, idempotent: Bool, mayHaveBeenSent: Bool, expected: Bool) {
        let error = FleetError(code: code, message: "test")
        #expect(policy.shouldRetry(error: error, idempotent: idempotent, mayHaveBeenSent: mayHaveBeenSent) == expected)
    }

    @Test("no attempt beyond the maximum")
    func attemptLimit() {
        let error = FleetError(.serverUnreachable)
        #expect(policy.shouldRetry(error: error, afterAttempt: 3, idempotent: true, mayHaveBeenSent: true))
        #expect(!policy.shouldRetry(error: error, afterAttempt: 4, idempotent: true, mayHaveBeenSent: true))
        #expect(!RetryPolicy.never.shouldRetry(error: error, afterAttempt: 1, idempotent: true, mayHaveBeenSent: false))
    }

    @Test("whether the request may have been sent follows from the transport cause",
          arguments: [
              (ErrorCause.serverUnreachable, true),
              (.tlsHandshakeFailed, true),
              (.deadlineExceededWhileConnecting, true),
              (.connectionLost, false),
              (.callDeadlineExceeded, false),
              (.serverStalled, false),
              (.invalidHTTPRequest, false),
          ])
    func postRetryByCause(cause: ErrorCause, retriesPOST: Bool) {
        let error = FleetError(cause)
        #expect(policy.shouldRetry(error: error, afterAttempt: 1, idempotent: false) == retriesPOST)
    }

    @Test("an error from the server itself counts as sent")
    func serverErrorsCountAsSent() {
        #expect(FleetError(code: .unavailable, message: "backend down").requestMayHaveBeenSent)
        #expect(!FleetError(.serverUnreachable).requestMayHaveBeenSent)
    }
}
