import FleetTestSupport
import Foundation
import Testing

/// The rider's and the customer's pages outlive their tokens when the server is given
/// `--map-token-url`: the server ends the live stream when the page's token expires, the page fetches
/// a new token there and goes on, showing the changes made after.
@Suite(.serialized) struct TokenRenewalPageTests {
    @Test(.enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func theRiderPageFetchesANewTokenWhenItsOwnExpires() throws {
        let folder = try Products.temporaryDirectory("map-token-url")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The token server answers with a good token: the page asks only once its own expired.
        let tokens = try MintedTokens(folder: folder, provider: nil)
        let tokenServer = try TokenServer(folder: folder, tokens: ["ride-1": [try tokens.mint(role: "consumer", ["--trip", "ride-1"])]])
        let renewing = try MapFixture(jwt: true, serverArguments: ["--map-token-url", tokenServer.url + "/rider/{provider}/{trip}"],
                                      tokens: tokens)
        try renewing.createCarAndRide()
        let browser = try Browser()
        defer { browser.quit() }
        let expiring = try tokens.mintExpiring(role: .consumer, tripID: "ride-1", acceptedFor: 4)
        try browser.open("\(renewing.server.url)/map/trips/ride-1?token=\(expiring)")
        try browser.wait("the trip's status", "return document.querySelector('[data-field=\"tripStatus\"]').dataset.status === 'ENROUTE_TO_PICKUP';")

        let asked = tokenServer.requests(atLeast: 1)
        #expect(asked == ["/rider/map-test/ride-1"], "the page asked for a new token once its own expired: \(asked)")
        try browser.wait("the page live again", "return document.body.dataset.connection === 'live.';")
        try renewing.rest("PUT", "/trips/ride-1?updateMask=tripStatus", ["tripStatus": "ARRIVED_AT_PICKUP"])
        try browser.wait("the change after the renewal", "return document.querySelector('[data-field=\"tripStatus\"]').textContent === 'Driver has arrived';")
        #expect(try browser.run("return document.getElementById('error').hidden;") as? Bool == true, "no error shown")
        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" && !$0.message.contains("401") }
        #expect(errors.isEmpty, "console: \(errors)")
    }

    @Test(.enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func theTrackingPageFetchesANewTokenWhenItsOwnExpires() throws {
        let folder = try Products.temporaryDirectory("map-token-url-tracking")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokens = try MintedTokens(folder: folder, provider: nil)
        let tokenServer = try TokenServer(folder: folder, tokens: ["PARCEL-7": [try tokens.mint(role: "consumer", ["--tracking", "PARCEL-7"])]])
        let fleet = try MapFixture(jwt: true, serverArguments: ["--map-token-url", tokenServer.url + "/customer/{provider}/{tracking}"],
                                   tokens: tokens, deliveries: true)
        try TrackingPageTests.vanWithTwoParcels(fleet)
        let browser = try Browser()
        defer { browser.quit() }
        let expiring = try tokens.mintExpiring(role: .consumer, trackingID: "PARCEL-7", acceptedFor: 4)
        try browser.open("\(fleet.server.url)/map/tracking/PARCEL-7?token=\(expiring)")
        try browser.wait("the stops before theirs", "return document.querySelector('[data-field=\"stopsBefore\"]').textContent === '1';")

        let asked = tokenServer.requests(atLeast: 1)
        #expect(asked == ["/customer/map-test/PARCEL-7"], "the page asked for a new token once its own expired: \(asked)")
        try browser.wait("the page live again", "return document.body.dataset.connection === 'live.';")
        try fleet.setStops("van-1", [(TrackingPageTests.ours, "mine")])
        try browser.wait("the change after the renewal", "return document.querySelector('[data-field=\"stopsBefore\"]').textContent === 'None: yours is next';")
        #expect(try browser.run("return document.getElementById('error').hidden;") as? Bool == true, "no error shown")
        let server = try tokens.mint(role: "server")
        #expect(try fleet.server.calls("WatchTaskTrackingInfo", token: server) >= 2, "watched, and watched again with the new token")
        #expect(try fleet.server.calls("GetTaskTrackingInfo", token: server) == 0, "the page polled instead of watching")
    }
}
