import FleetTestSupport
import Foundation
import Testing

/// The operator's page in a real browser: every vehicle live from the vehicles `:watch` stream,
/// coloured by state, a search that finds a trip's car, a car turning stale.
@Suite(.serialized) struct OperatorPageTests {
    static func dot(_ id: String) -> String { "document.querySelector('[data-field=\"fleetVehicle\"][data-vehicle-id=\"\(id)\"]')" }

    @Test func theFleetIsLiveColouredAndSearchable() throws {
        let fleet = try MapFixture(jwt: true, staleAfter: 6)
        let tokens = try #require(fleet.tokens)
        try fleet.createCarAndRide()
        try fleet.rest("POST", "/vehicles?vehicleId=car-2", [
            "vehicleState": "OFFLINE", "vehicleType": ["category": "AUTO"], "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
            "lastLocation": ["location": MapFixture.point((60.1720, 24.9390))],
        ])
        let reader = try tokens.mint(role: "fleet-reader")
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map?token=\(reader)")
        try browser.wait("both cars", "return /^2 vehicles/.test(document.querySelector('[data-field=\"fleetCounts\"]').textContent);")
        // The browser may take longer to start than a car stays fresh (6 s): the car reports again
        // once the page is live, so the page must show it online.
        try fleet.report(at: MapFixture.route[0])
        try browser.wait("car-1's dot", "const d = \(Self.dot("car-1")); return d && d.dataset.state === 'online';")
        #expect(try browser.run("return \(Self.dot("car-2")).dataset.state;") as? String == "offline")
        try Screenshots.take(browser, "operator-1-fleet")

        // A vehicle created while the page is open appears; a report moves its dot.
        try fleet.rest("POST", "/vehicles?vehicleId=car-3", [
            "vehicleState": "ONLINE", "vehicleType": ["category": "TAXI"], "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
            "lastLocation": ["location": MapFixture.point((60.1660, 24.9480))],
        ])
        try browser.wait("car-3", "return /^3 vehicles/.test(document.querySelector('[data-field=\"fleetCounts\"]').textContent);")
        try fleet.report(at: (60.1690, 24.9400))
        try browser.wait("car-1 to move", "return \(Self.dot("car-1")).dataset.lat === '60.169';")

        // Search by trip ID: the page selects the trip's car and lists its trip.
        try browser.run("document.getElementById('search-box').value = 'ride-1'; document.querySelector('#search button').click();")
        try browser.wait("the selection", "const s = document.querySelector('[data-field=\"selection\"]'); return s.dataset.vehicleId === 'car-1' && /ride-1: ENROUTE_TO_PICKUP/.test(s.textContent);")
        #expect(try browser.run("return \(Self.dot("car-1")).classList.contains('selected');") as? Bool == true)
        try Screenshots.take(browser, "operator-2-search")

        // A deleted vehicle leaves the map.
        try fleet.rest("DELETE", "/vehicles/car-2")
        try browser.wait("car-2 gone", "return \(Self.dot("car-2")) === null && /^2 vehicles/.test(document.querySelector('[data-field=\"fleetCounts\"]').textContent);")

        // Cars that stop reporting turn stale.
        try browser.wait("car-1 stale", timeout: 30, "return \(Self.dot("car-1")).dataset.state === 'stale';")
        try Screenshots.take(browser, "operator-3-stale")

        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" }
        #expect(errors.isEmpty, "console: \(errors)")
    }

    /// With `--router`, a dropoff far from every road: the selected car's route draws the leg to it dashed
    /// (the vehicle's `estimatedLegs`) and the road leg to the pickup solid, and the selection says why.
    @Test(.enabled(if: HelsinkiMap.directory != nil, "\(HelsinkiMap.missing)"))
    func aLegWithoutARoadIsDrawnDashed() throws {
        let fleet = try MapFixture(serverArguments: ["--router", "routino:" + HelsinkiMap.directory!])
        try fleet.rest("POST", "/vehicles?vehicleId=car-1", [
            "vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": ["category": "AUTO"],
            "lastLocation": ["location": MapFixture.point((60.16675, 24.94956))],
        ])
        try fleet.rest("POST", "/trips?tripId=ride-1", [
            "tripType": "EXCLUSIVE", "vehicleId": "car-1",
            "pickupPoint": ["point": MapFixture.point((60.17088, 24.94496))], "dropoffPoint": ["point": MapFixture.point((60.30, 24.94))],
        ])
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map")
        try browser.wait("car-1's dot", "return \(Self.dot("car-1")) !== null;")
        try browser.run("document.getElementById('search-box').value = 'car-1'; document.querySelector('#search button').click();")
        try browser.wait("the estimated leg", "return document.querySelectorAll('path.estimated-leg').length === 1;")
        #expect(try browser.run("return document.querySelector('path.estimated-leg').getAttribute('stroke-dasharray');") as? String == "2 9")
        #expect(try browser.run("return [...document.querySelectorAll('.leaflet-overlay-pane path:not(.estimated-leg)')].filter(p => p.getAttribute('stroke') === '#0b57d0' && !p.getAttribute('stroke-dasharray')).length;") as? Int == 1,
                "the road leg is drawn solid")
        let selection = try browser.run("return document.querySelector('[data-field=\"selection\"]').textContent;") as? String ?? ""
        #expect(selection.contains("No road") && selection.contains("POINT_OFF_MAP") && selection.contains("drop_off"), "\(selection)")
        try Screenshots.take(browser, "operator-4-estimated-leg")
        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" }
        #expect(errors.isEmpty, "console: \(errors)")
    }
}
