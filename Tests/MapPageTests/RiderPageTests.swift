import FleetTestSupport
import Foundation
import Testing

/// The rider's page in a real headless Chromium against a real `fleet-admin serve`: the car moves
/// when it reports, the ETA and distance texts follow, status changes appear, a car that stops
/// reporting turns stale, and a bad link shows the catalogue's words.
@Suite(.serialized) struct RiderPageTests {
    static let vehicle = "document.querySelector('[data-field=\"vehicle\"]')"

    @Test func theCarMovesAndTheTextsFollowUntilItGoesStale() throws {
        let fleet = try MapFixture(staleAfter: 8)
        try fleet.createCarAndRide()
        try fleet.report(at: MapFixture.route[0], heading: 0)
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/trips/ride-1")

        try browser.wait("the trip's status", "return document.querySelector('[data-field=\"tripStatus\"]').dataset.status === 'ENROUTE_TO_PICKUP';")
        try browser.wait("the car on the map", "const v = \(Self.vehicle); return v && v.dataset.lat === '60.165';")
        try browser.wait("the pickup ETA", "return /in \\d+ min|now/.test(document.querySelector('[data-field=\"pickupEta\"]').textContent);")
        #expect(try browser.text("tripStatus") == "Driver on the way")
        let distanceBefore = try #require(try browser.text("remainingDistance"))
        let etaBefore = try #require(try browser.text("pickupEta"))
        #expect(distanceBefore.hasSuffix("to pickup"))
        #expect(try browser.run("return document.querySelectorAll('.stop-icon.pickup').length + document.querySelectorAll('.stop-icon.dropoff').length;") as? Int == 2)
        #expect(try browser.run("return document.querySelectorAll('.leaflet-overlay-pane path').length;") as? Int ?? 0 > 2,
                "roads and the route are drawn as vectors")
        #expect(try browser.text("vehicleAge")?.hasPrefix("Updated") == true)
        try Screenshots.take(browser, "rider-1-enroute-to-pickup")

        // The car reports near the pickup: the marker glides there, distance and ETA change.
        try fleet.report(at: (60.1695, 24.9410), heading: 40)
        try browser.wait("the marker to move", "const v = \(Self.vehicle); return v && v.dataset.lat === '60.1695' && v.dataset.lng === '24.941';")
        try browser.wait("the distance text to change", "return document.querySelector('[data-field=\"remainingDistance\"]').textContent !== arguments[0];", [distanceBefore])
        try browser.wait("the ETA text to change", "return document.querySelector('[data-field=\"pickupEta\"]').textContent !== arguments[0];", [etaBefore])
        // The marker glides along the route and ends where the car reported: at the pixel Leaflet
        // gives the reported position.
        try browser.wait("the marker's glide to end", "return \(Self.vehicle).dataset.gliding === 'false';")
        let script = """
            const v = \(Self.vehicle), box = v.getBoundingClientRect(), map = document.getElementById('map').getBoundingClientRect();
            const p = FleetMap.leafletMap.latLngToContainerPoint([60.1695, 24.941]);
            return Math.hypot(box.left + box.width / 2 - map.left - p.x, box.top + box.height / 2 - map.top - p.y);
            """
        let offset = try #require((try browser.run(script) as? NSNumber)?.doubleValue)
        #expect(offset < 2, "the marker is \(offset) px from the reported position")
        try Screenshots.take(browser, "rider-2-near-pickup")

        // Status changes appear as words.
        try fleet.rest("PUT", "/trips/ride-1?updateMask=tripStatus", ["tripStatus": "ARRIVED_AT_PICKUP"])
        try browser.wait("ARRIVED_AT_PICKUP", "return document.querySelector('[data-field=\"tripStatus\"]').textContent === 'Driver has arrived';")
        try fleet.rest("PUT", "/trips/ride-1?updateMask=tripStatus", ["tripStatus": "ENROUTE_TO_DROPOFF"])
        try browser.wait("ENROUTE_TO_DROPOFF", "return document.querySelector('[data-field=\"tripStatus\"]').textContent === 'On the way to your destination';")
        try browser.wait("the pickup to be done", "return document.querySelector('[data-field=\"pickupEta\"]').textContent === 'Picked up';")
        #expect(try browser.text("dropoffEta")?.contains(":") == true)
        try Screenshots.take(browser, "rider-3-enroute-to-dropoff")

        // The driver's phone goes quiet: past --stale-after the page says so, in words and on the marker.
        try browser.wait("the car to turn stale", timeout: 30,
                         "return document.querySelector('[data-field=\"vehicleAge\"]').dataset.stale === 'true';")
        let age = try #require(try browser.text("vehicleAge"))
        #expect(age.hasPrefix("Not updated for") && age.contains("may not be where it is shown"), "\(age)")
        #expect(try browser.run("return \(Self.vehicle).classList.contains('stale');") as? Bool == true)
        try Screenshots.take(browser, "rider-4-stale")

        // A report brings it back.
        try fleet.report(at: (60.1710, 24.9440), heading: 40)
        try browser.wait("the car to be fresh again", "return document.querySelector('[data-field=\"vehicleAge\"]').dataset.stale === 'false';")

        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        #expect(errors.isEmpty, "console: \(errors)")
    }

    @Test func aDeletedTripShowsTheCataloguesWords() throws {
        let fleet = try MapFixture()
        try fleet.createCarAndRide()
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/trips/ride-1")
        try browser.wait("the page to be live", "return document.body.dataset.connection === 'live.';")
        // A deleted trip ends the stream with an error event: the catalogue's words, not a blank page.
        try fleet.rest("PUT", "/trips/ride-1?updateMask=tripStatus", ["tripStatus": "CANCELED"])
        try browser.wait("CANCELED", "return document.querySelector('[data-field=\"tripStatus\"]').textContent === 'Trip cancelled';")
        try fleet.rest("DELETE", "/trips/ride-1")
        try browser.wait("the error box", "const e = document.querySelector('[data-field=\"error\"]'); return !e.hidden && e.dataset.reason === 'TRIP_NOT_FOUND';")
        let words = try #require(try browser.text("error"))
        #expect(words.contains("This trip does not exist any more"), "\(words)")
        try Screenshots.take(browser, "rider-5-trip-deleted")
    }

    @Test func aDriverKilledWithSIGKILLLeavesAStaleCarNotAFrozenOne() throws {
        // The issue's own report: a real driver-report drives the route, is killed with SIGKILL, and
        // the rider must be told the car's position is getting old.
        let fleet = try MapFixture(staleAfter: 5)
        try fleet.rest("POST", "/vehicles?vehicleId=car-1", [
            "vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": ["category": "AUTO"],
        ])
        try fleet.rest("POST", "/trips?tripId=ride-1", [
            "tripType": "EXCLUSIVE", "vehicleId": "car-1",
            "pickupPoint": ["point": MapFixture.point(MapFixture.pickup)], "dropoffPoint": ["point": MapFixture.point(MapFixture.dropoff)],
        ])
        try fleet.rest("PUT", "/trips/ride-1?updateMask=tripStatus", ["tripStatus": "ENROUTE_TO_PICKUP"])
        let route = fleet.folder.appendingPathComponent("route.geojson")
        let coordinates = MapFixture.route.map { "[\($0.1),\($0.0)]" }.joined(separator: ",")
        try #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[\#(coordinates)]}}"#
            .write(to: route, atomically: true, encoding: .utf8)
        let driver = Process()
        driver.executableURL = try Products.locate("driver-report")
        driver.arguments = ["--transport", fleet.server.url, "--provider", MapFixture.provider, "--vehicle", "car-1",
                            "--source", "simulate:\(route.path)", "--route", route.path, "--speedup", "5", "--interval", "5s",
                            "--log-format", "json"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        defer { if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }; driver.waitUntilExit() }

        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/trips/ride-1")
        let first = try browser.wait("the car", timeout: 30, "const v = \(Self.vehicle); return v && v.dataset.lat;") as? String
        try browser.wait("the car to move on its own", timeout: 30, "return \(Self.vehicle).dataset.lat !== arguments[0];", [first ?? ""])
        #expect(try browser.text("vehicleAge")?.hasPrefix("Updated") == true)
        try Screenshots.take(browser, "driver-1-reporting")

        kill(driver.processIdentifier, SIGKILL)
        driver.waitUntilExit()
        let frozen = try browser.run("return \(Self.vehicle).dataset.lat;") as? String
        try browser.wait("the car to turn stale", timeout: 30, "return document.querySelector('[data-field=\"vehicleAge\"]').dataset.stale === 'true';")
        #expect(try browser.run("return \(Self.vehicle).dataset.lat;") as? String == frozen, "nothing moves the car any more")
        #expect(try browser.text("vehicleAge")?.contains("the car may not be where it is shown") == true)
        #expect(try browser.text("pickupEta")?.hasSuffix("(car not reporting)") == true, "an ETA from an old position says so")
        #expect(try browser.text("tripStatus") == "Driver on the way", "the trip itself is unchanged: only the clock tells")
        try Screenshots.take(browser, "driver-2-killed-stale")
    }
}
