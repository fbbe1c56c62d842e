import Testing
import FleetBackoff

@Suite struct BackoffTests {
    @Test func waitsDoubleUpToTheMaximum() {
        let backoff = Backoff()
        let waits = (1...8).map { backoff.delay(afterFailures: $0, random: 0) }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(backoff.delay(afterFailures: 100_000, random: 0) == 30)
    }

    @Test(arguments: [0.0, 0.25, 0.5, 0.999])
    func jitterTakesOffUpToItsFraction(random: Double) {
        let backoff = Backoff(initial: 2, multiplier: 3, maximum: 100, jitter: 0.4)
        let wait = backoff.delay(afterFailures: 3, random: random)
        #expect(wait == 18 * (1 - 0.4 * random))
        #expect(wait > 18 * 0.6 && wait <= 18)
    }

    @Test func jitterIsClampedToAFraction() {
        #expect(Backoff(jitter: 3).jitter == 1)
        #expect(Backoff(jitter: -1).jitter == 0)
    }
}
