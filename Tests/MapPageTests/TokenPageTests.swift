import FleetTestSupport
import Foundation
import Testing

/// With JWTs on, the pages take their token from `?token=` and are refused as the REST call behind
/// them would be, with the catalogue's words on the page and the REST status.
@Suite(.serialized) struct TokenPageTests {
    /// An HS256 token signed outside our code (Python's hmac), with `exp` in the past.
    static func expiredToken(secretFile: String, trip: String) throws -> String {
        let script = """
        import base64, hmac, hashlib, json, sys, time
        secret = open(sys.argv[1], 'rb').read().rstrip(b'\\n')
        b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b'=').decode()
        now = int(time.time())
        header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        claims = b64(json.dumps({"iss": "test", "sub": "test", "aud": "https://fleetengine.googleapis.com/", "iat": now - 7200,
                                 "exp": now - 3600, "fleetrole": "consumer", "authorization": {"tripid": sys.argv[2]}}).encode())
        signature = b64(hmac.new(secret, (header + '.' + claims).encode(), hashlib.sha256).digest())
        print(header + '.' + claims + '.' + signature)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, secretFile, trip]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func badTokensShowTheCataloguesWordsAndAGoodOneShowsTheTrip() throws {
        let fleet = try MapFixture(jwt: true)
        let tokens = try #require(fleet.tokens)
        try fleet.createCarAndRide()
        let page = "\(fleet.server.url)/map/trips/ride-1"
        let cases: [(token: String?, status: Int, words: String, name: String)] = [
            (nil, 403, "This link is incomplete (it has no access token)", "no-token"),
            ("not.a.jwt", 401, "This link is not valid: ask the app for a new link.", "garbage-token"),
            (try Self.expiredToken(secretFile: tokens.secretFile, trip: "ride-1"), 401, "This link has expired: ask the app for a new link.", "expired-token"),
            (try tokens.mint(role: "consumer", ["--trip", "ride-2"]), 403, "This link is for another trip", "other-trip-token"),
        ]
        let browser = try Browser()
        defer { browser.quit() }
        for c in cases {
            let url = page + (c.token.map { "?token=\($0)" } ?? "")
            // The same refusal REST gives, with the page's words in the body.
            let answer = try Curl.call("GET", url)
            #expect(answer.status == c.status, "\(c.name): \(answer.status)")
            #expect(answer.body.contains(c.words), "\(c.name): \(answer.body)")
            try browser.open(url)
            try browser.wait("the error for \(c.name)", "const e = document.querySelector('[data-field=\"error\"]'); return e && !e.hidden && e.textContent;")
            #expect(try browser.text("error")?.contains(c.words) == true, "\(c.name)")
            try Screenshots.take(browser, "token-\(c.name)")
        }

        // The rider's own token: the page works, its calls carry the token as a bearer header.
        let consumer = try tokens.mint(role: "consumer", ["--trip", "ride-1"])
        try browser.open(page + "?token=" + consumer)
        try browser.wait("the trip's status", "return document.querySelector('[data-field=\"tripStatus\"]').dataset.status === 'ENROUTE_TO_PICKUP';")
        try browser.wait("the car", "const v = document.querySelector('[data-field=\"vehicle\"]'); return v && v.dataset.lat;")
        try fleet.report(at: (60.1690, 24.9400))
        try browser.wait("the marker to move", "return document.querySelector('[data-field=\"vehicle\"]').dataset.lat === '60.169';")
        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" && !$0.message.contains("401") && !$0.message.contains("403") }
        #expect(errors.isEmpty, "console: \(errors)")
        try Screenshots.take(browser, "token-consumer")

        // The operator's page wants a server or fleet-reader token: a consumer's is refused.
        let refused = try Curl.call("GET", "\(fleet.server.url)/map?token=\(consumer)")
        #expect(refused.status == 403)
        #expect(refused.body.contains("This link may not show this page"))
    }
}
