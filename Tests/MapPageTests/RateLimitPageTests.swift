import FleetTestSupport
import Foundation
import Testing

/// A rider whose calls are over the server's rate limit is told to wait, not to ask for a new link,
/// and the page waits out the server's Retry-After and goes on live by itself.
@Suite(.serialized) struct RateLimitPageTests {
    @Test func aRateLimitedPageSaysToWaitAndRecoversByItself() throws {
        let fleet = try MapFixture(jwt: true, serverArguments: ["--rate-limit", "0.2", "--rate-burst", "10"])
        let tokens = try #require(fleet.tokens)
        try fleet.createCarAndRide()
        let consumer = try tokens.mint(role: "consumer", ["--trip", "ride-1"])
        let browser = try Browser()
        defer { browser.quit() }
        // The rider's token spends its whole burst just before the page opens: the page's first call
        // is refused with 429 and a Retry-After of about 5 s.
        var refused = 0
        for _ in 0..<12 {
            let answer = try Curl.call("GET", fleet.base + "/trips/ride-1", headers: ["Authorization": "Bearer \(consumer)"])
            if answer.status == 429 { refused += 1 }
        }
        #expect(refused >= 1, "the rate limit is on")
        try browser.open("\(fleet.server.url)/map/trips/ride-1?token=\(consumer)")
        try browser.wait("the rate limit's words", """
            const e = document.querySelector('[data-field="error"]');
            return !e.hidden && e.dataset.code === 'RESOURCE_EXHAUSTED' && e.dataset.reason === 'RATE_LIMITED';
            """)
        let words = try #require(try browser.text("error"))
        #expect(words.contains("Too many requests right now: wait a moment, the page tries again by itself."), "\(words)")
        #expect(!words.contains("new link"), "\(words)")
        try Screenshots.take(browser, "rate-limited-1-waiting")

        // Nothing to do for the rider: the page goes on live once the server lets it.
        try browser.wait("the page to be live again", timeout: 40, """
            return document.body.dataset.connection === 'live.' && document.querySelector('[data-field="error"]').hidden;
            """)
        #expect(try browser.run("return document.querySelector('[data-field=\"tripStatus\"]').dataset.status;") as? String == "ENROUTE_TO_PICKUP")
        try Screenshots.take(browser, "rate-limited-2-live-again")
    }
}
