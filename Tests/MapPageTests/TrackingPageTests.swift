import FleetModel
import FleetTestSupport
import Foundation
import Testing

/// The shipment's page `/map/tracking/{trackingId}` in a real headless Chromium against a real
/// `fleet-admin serve`: the van, its route and the customer's stop, the stops before theirs, the
/// arrival time, what the task's view config hides, how the delivery ended; and the delivery vans
/// with their stops on the operator's page.
@Suite(.serialized) struct TrackingPageTests {
    static let vehicle = "document.querySelector('[data-field=\"vehicle\"]')"
    static let other = MapFixture.route[2]
    static let ours = MapFixture.route[4]

    /// A van at the route's start with two parcels to deliver: another customer's, then ours (`PARCEL-7`).
    static func vanWithTwoParcels(_ fleet: MapFixture, view: TaskTrackingViewConfig? = nil) throws {
        try fleet.createVan("van-1", at: MapFixture.route[0])
        try fleet.createParcel("other", tracking: "OTHER", at: other)
        try fleet.createParcel("mine", tracking: "PARCEL-7", at: ours, view: view)
        try fleet.setStops("van-1", [(other, "other"), (ours, "mine")])
    }

    @Test func theCustomerSeesTheVanTheStopsBeforeTheirsAndHowItEnded() throws {
        let fleet = try MapFixture(staleAfter: 60, deliveries: true)
        try Self.vanWithTwoParcels(fleet)
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/tracking/PARCEL-7")

        try browser.wait("the shipment's state", "return document.querySelector('[data-field=\"taskState\"]').dataset.state === 'OPEN';")
        #expect(try browser.text("taskState") == "On its way")
        #expect(try browser.text("stopsBefore") == "1")
        #expect(try browser.run("return document.querySelector('[data-field=\"stopsBefore\"]').dataset.count;") as? String == "2")
        let arrival = try browser.text("arrivalEta") ?? ""
        #expect(arrival.contains(" · in ") || arrival.hasSuffix("now"), "\(arrival)")
        let distance = try browser.text("remainingDistance") ?? ""
        #expect(distance.hasSuffix(" km") || distance.hasSuffix(" m"), "\(distance)")
        try browser.wait("the van on the map", "const v = \(Self.vehicle); return v && v.dataset.lat === '60.165';")
        #expect(try browser.text("vehicleAge")?.hasPrefix("Updated") == true)
        #expect(try browser.run("return Number(document.getElementById('map').dataset.routePoints) > 1;") as? Bool == true, "the route is drawn")
        #expect(try browser.run("return document.querySelectorAll('.stop-icon.dropoff').length;") as? Int == 1, "the customer's stop")
        #expect(try browser.run("return document.body.dataset.following;") as? String == "true")
        #expect(try browser.run(CameraPageTests.inView(Self.ours)) as? Bool == true)
        try Screenshots.take(browser, "tracking-1-on-its-way")

        // The van drives; the other customer's parcel is delivered: ours is next.
        try fleet.moveVan("van-1", to: MapFixture.route[1])
        try browser.wait("the van to move", "const v = \(Self.vehicle); return v && v.dataset.lat === '60.168';")
        try fleet.setStops("van-1", [(Self.ours, "mine")])
        try browser.wait("ours to be next", "return document.querySelector('[data-field=\"stopsBefore\"]').textContent === 'None: yours is next';")
        try Screenshots.take(browser, "tracking-2-yours-is-next")

        // Delivered: the page says so, and the van is gone.
        try fleet.closeParcel("mine", on: "van-1", leaving: [], outcome: .succeeded)
        try browser.wait("the outcome", "return document.querySelector('[data-field=\"taskState\"]').dataset.outcome === 'SUCCEEDED';")
        let state = try browser.text("taskState") ?? ""
        #expect(state.hasPrefix("Delivered at "), "\(state)")
        #expect(try browser.run("return \(Self.vehicle) === null;") as? Bool == true)
        #expect(try browser.text("stopsBefore") == "—")
        try Screenshots.take(browser, "tracking-3-delivered")

        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        #expect(errors.isEmpty, "console: \(errors)")
        // Live from the tracking ID's :watch stream, not by polling.
        #expect(try browser.run("return document.body.dataset.connection;") as? String == "live.")
        #expect(try fleet.server.calls("WatchTaskTrackingInfo") >= 1)
        #expect(try fleet.server.calls("GetTaskTrackingInfo") == 0, "the page polled instead of watching")
    }

    @Test func theViewConfigDecidesWhatTheCustomerSees() throws {
        let fleet = try MapFixture(deliveries: true)
        let option = { (option: TaskTrackingViewConfig.VisibilityOption.VisibilityOption) in TaskTrackingViewConfig.VisibilityOption(visibilityOption: option) }
        try Self.vanWithTwoParcels(fleet, view: TaskTrackingViewConfig(routePolylinePointsVisibility: option(.never(true)),
                                                                      vehicleLocationVisibility: option(.remainingStopCountThreshold(1))))
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/tracking/PARCEL-7")
        try browser.wait("the shipment's state", "return document.querySelector('[data-field=\"stopsBefore\"]').textContent === '1';")
        #expect(try browser.text("vehicleAge") == "Not shown yet")
        #expect(try browser.run("return \(Self.vehicle) === null;") as? Bool == true, "two stops away: no van")
        #expect(try browser.run("return document.getElementById('map').dataset.routePoints;") as? String == "0", "the route is never shown")

        try fleet.setStops("van-1", [(Self.ours, "mine")])
        try browser.wait("the van, now that ours is next", "const v = \(Self.vehicle); return v && v.dataset.lat === '60.165';")
        #expect(try browser.run("return document.getElementById('map').dataset.routePoints;") as? String == "0")
        try Screenshots.take(browser, "tracking-4-van-shown-at-last-stop")
    }

    @Test func aFailedDeliveryAndAnUnknownTrackingIDAreSaidInWords() throws {
        let fleet = try MapFixture(deliveries: true)
        try Self.vanWithTwoParcels(fleet)
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/tracking/PARCEL-7")
        try browser.wait("the shipment's state", "return document.querySelector('[data-field=\"taskState\"]').dataset.state === 'OPEN';")
        try fleet.closeParcel("mine", on: "van-1", leaving: [(Self.other, "other")], outcome: .failed)
        try browser.wait("the outcome", "return document.querySelector('[data-field=\"taskState\"]').dataset.outcome === 'FAILED';")
        #expect(try browser.text("taskState")?.hasPrefix("Could not be delivered at ") == true)

        try browser.open("\(fleet.server.url)/map/tracking/NOPE")
        try browser.wait("the error box", "const e = document.querySelector('[data-field=\"error\"]'); return !e.hidden && e.dataset.code === 'NOT_FOUND';")
        #expect(try browser.run("return document.body.dataset.connection;") as? String == "stopped.")
        let words = try #require(try browser.text("error"))
        #expect(words.contains("What this link shows does not exist (any more)"), "\(words)")
        try Screenshots.take(browser, "tracking-5-unknown")
    }

    @Test func withTokensThePageIsRefusedAsGetTaskTrackingInfoWouldBe() throws {
        let fleet = try MapFixture(jwt: true, deliveries: true)
        let tokens = try #require(fleet.tokens)
        try Self.vanWithTwoParcels(fleet)
        let page = "\(fleet.server.url)/map/tracking/PARCEL-7"
        let refused = try Curl.call("GET", page)
        #expect([401, 403].contains(refused.status), "\(refused.status)")
        // A consumer token without a tracking ID is one signed without the ID its role needs (401, as
        // for a trip); one for another shipment is refused (403).
        let trip = try tokens.mint(role: "consumer", ["--trip", "ride-1"])
        #expect(try Curl.call("GET", page + "?token=" + trip).status == 401, "a token for a trip is not one for a shipment")
        let otherShipment = try tokens.mint(role: "consumer", ["--tracking", "PARCEL-8"])
        #expect(try Curl.call("GET", page + "?token=" + otherShipment).status == 403, "a token for another shipment")
        let mine = try tokens.mint(role: "consumer", ["--tracking", "PARCEL-7"])
        #expect(try Curl.call("GET", page + "?token=" + mine).status == 200, "the customer's own token")

        let server = try tokens.mint(role: "server")
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open(page + "?token=" + server)
        try browser.wait("the shipment's state", "return document.querySelector('[data-field=\"taskState\"]').dataset.state === 'OPEN';")
    }

    @Test func theOperatorSeesTheVansAndTheirStops() throws {
        let fleet = try MapFixture(deliveries: true)
        try fleet.createCarAndRide()
        try Self.vanWithTwoParcels(fleet)
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map")
        let van = "document.querySelector('[data-field=\"deliveryVehicle\"][data-vehicle-id=\"van-1\"]')"
        try browser.wait("the van", "const v = \(van); return v && v.dataset.stops === '2' && v.dataset.lat === '60.165';")
        #expect(try browser.run("return document.querySelectorAll('[data-field=\"deliveryStop\"][data-vehicle-id=\"van-1\"]').length;") as? Int == 2)
        #expect(try browser.text("deliveryCounts") == "1 delivery vehicle, 2 stops to go")
        try browser.wait("the car too", "return /^1 vehicle/.test(document.querySelector('[data-field=\"fleetCounts\"]').textContent);")
        try Screenshots.take(browser, "operator-vans-1")

        try fleet.setStops("van-1", [(Self.ours, "mine")])
        try fleet.moveVan("van-1", to: MapFixture.route[3])
        try browser.wait("the van's next poll", timeout: 15, "const v = \(van); return v && v.dataset.stops === '1' && v.dataset.lat === '60.172';")
        #expect(try browser.text("deliveryCounts") == "1 delivery vehicle, 1 stop to go")
        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        #expect(errors.isEmpty, "console: \(errors)")
    }
}
