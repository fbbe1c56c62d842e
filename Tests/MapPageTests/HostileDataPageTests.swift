import FleetTestSupport
import Foundation
import Testing

/// Every map page in a real headless Chromium, over a fleet whose IDs and attribute values are
/// hostile HTML (Fleet Engine allows `<`, `>`, `=` and spaces in IDs): no script of that data runs and
/// no element of it appears, on the rider's page, the operator's page with the vehicle selected and
/// its waypoints' tooltips open, and the error pages; and the pages work under their
/// Content-Security-Policy, which the browser reports no violation of.
@Suite(.serialized) struct HostileDataPageTests {
    /// Each hostile text makes an element with a known ID and, were it run, sets `window.__pwned`.
    static let vehicleID = "<img src=x onerror=window.__pwned=1 id=hostile-v>"
    static let tripID = "<img src=x onerror=window.__pwned=2 id=hostile-t>"
    static let attributeKey = "<b id=hostile-k>k</b>"
    static let attributeValue = "<img src=x onerror=window.__pwned=3 id=hostile-a>"
    static let otherTrip = "<svg id=hostile-e onload=window.__pwned=4>"

    /// Fails with what the page made of the hostile data: a script that ran, or an element of it.
    static let injected = """
        const found = Array.from(document.querySelectorAll('[id^="hostile-"], img[src="x"], svg[onload], [onerror]')).map(e => e.outerHTML);
        return JSON.stringify({ pwned: window.__pwned || null, found: found });
        """

    static func expectClean(_ browser: Browser, _ page: String) throws {
        let result = try #require(try browser.run(Self.injected) as? String)
        #expect(result == #"{"pwned":null,"found":[]}"#, "\(page): \(result)")
        let violations = try browser.consoleLog().filter { $0.message.contains("Content Security Policy") || $0.message.contains("Content-Security-Policy") }
        #expect(violations.isEmpty, "\(page): the page breaks its own policy, or hostile data reached an HTML sink: \(violations)")
    }

    /// The response headers of a GET, names lowercased.
    static func headers(_ url: String) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-S", "--max-time", "20", "-D", "-", "-o", "/dev/null", url]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var headers: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    static func encoded(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
    }

    @Test func hostileIDsAndAttributesRunNothingOnAnyPage() throws {
        let fleet = try MapFixture(jwt: true)
        let tokens = try #require(fleet.tokens)
        let vehicle = Self.encoded(Self.vehicleID), trip = Self.encoded(Self.tripID)
        try fleet.rest("POST", "/vehicles?vehicleId=\(vehicle)", [
            "vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE", "SHARED"], "maximumCapacity": 4,
            "vehicleType": ["category": "AUTO"],
            "attributes": [["key": Self.attributeKey, "value": Self.attributeValue]],
        ])
        for (id, offset) in [(Self.otherTrip, 0.001), (Self.tripID, 0.0)] {
            try fleet.rest("POST", "/trips?tripId=\(Self.encoded(id))", [
                "tripType": "SHARED", "numberOfPassengers": 1, "vehicleId": Self.vehicleID,
                "pickupPoint": ["point": MapFixture.point((MapFixture.pickup.0 + offset, MapFixture.pickup.1))],
                "dropoffPoint": ["point": MapFixture.point((MapFixture.dropoff.0 + offset, MapFixture.dropoff.1))],
            ])
        }
        try fleet.rest("PUT", "/trips/\(trip)?updateMask=tripStatus", ["tripStatus": "ENROUTE_TO_PICKUP"])
        try fleet.rest("PUT", "/vehicles/\(vehicle)?updateMask=currentRouteSegment,lastLocation", [
            "currentRouteSegment": MapFixture.encodePolyline(MapFixture.route),
            "lastLocation": ["location": MapFixture.point(MapFixture.route[0]), "heading": 0, "speed": 8],
        ])
        let browser = try Browser()
        defer { browser.quit() }

        // The rider's page of the hostile trip.
        let consumer = try tokens.mint(role: "consumer", ["--trip", Self.tripID])
        try browser.open("\(fleet.server.url)/map/trips/\(trip)?token=\(consumer)")
        try browser.wait("the trip's status", "return document.querySelector('[data-field=\"tripStatus\"]').dataset.status === 'ENROUTE_TO_PICKUP';")
        try browser.wait("the stops on the map", "return document.querySelectorAll('.stop-icon.pickup').length === 1;")
        try Self.expectClean(browser, "rider")

        // The operator's page: the hostile vehicle listed, selected by the hostile trip's ID, and the
        // tooltips of its waypoints (which name their trips) open.
        let reader = try tokens.mint(role: "fleet-reader")
        try browser.open("\(fleet.server.url)/map?token=\(reader)")
        try browser.wait("the vehicle listed", "return /^1 vehicle/.test(document.querySelector('[data-field=\"fleetCounts\"]').textContent);")
        try browser.run("document.getElementById('search-box').value = arguments[0]; document.querySelector('#search button').click();", [Self.tripID])
        try browser.wait("the selection", "const s = document.querySelector('[data-field=\"selection\"]'); return s.dataset.vehicleId === arguments[0];", [Self.vehicleID])
        try browser.wait("the waypoints drawn", """
            let n = 0; FleetMap.leafletMap.eachLayer(l => { if (l.getTooltip && l.getTooltip()) { l.openTooltip(); n++; } }); return n >= 4;
            """)
        try browser.wait("the tooltips open", "return document.querySelectorAll('.leaflet-tooltip').length >= 4;")
        let tips = try browser.run("return Array.from(document.querySelectorAll('.leaflet-tooltip')).map(t => t.textContent).join('\\n');") as? String ?? ""
        #expect(tips.contains(Self.tripID) && tips.contains(Self.otherTrip), "the tooltips show the trip IDs as text: \(tips)")
        try Self.expectClean(browser, "operator")

        // The error pages: the server's (a token for another trip, naming the hostile trip) and the
        // page script's (the same, met by the script's own call).
        try browser.open("\(fleet.server.url)/map/trips/\(Self.encoded(Self.otherTrip))?token=\(consumer)")
        try browser.wait("the error", "return !document.getElementById('error').hidden && document.getElementById('error').textContent.length > 0;")
        #expect(try browser.run("return document.getElementById('error').textContent;") as? String ?? "" != "")
        try Self.expectClean(browser, "error page")
    }

    /// A tracking ID, a van's ID and a task's attributes that are HTML: the customer's page and the
    /// operator's page (the van's and its stops' tooltips open) run none of it and make no element of it.
    @Test func hostileShipmentDataRunsNothingOnTheTrackingAndOperatorPages() throws {
        let fleet = try MapFixture(jwt: true, deliveries: true)
        let tokens = try #require(fleet.tokens)
        let tracking = "<img src=x onerror=window.__pwned=5 id=hostile-s>"
        let van = "<img src=x onerror=window.__pwned=6 id=hostile-van>"
        try fleet.createVan(van, at: MapFixture.route[0])
        try fleet.createParcel("parcel", tracking: tracking, at: MapFixture.route[4])
        try fleet.setStops(van, [(MapFixture.route[4], "parcel")])
        let browser = try Browser()
        defer { browser.quit() }

        let server = try tokens.mint(role: "server")
        try browser.open("\(fleet.server.url)/map/tracking/\(Self.encoded(tracking))?token=\(server)")
        try browser.wait("the shipment's state", "return document.querySelector('[data-field=\"taskState\"]').dataset.state === 'OPEN';")
        try browser.wait("the van", "return document.querySelector('[data-field=\"vehicle\"]') !== null;")
        try Self.expectClean(browser, "tracking")

        let reader = try tokens.mint(role: "fleet-reader")
        try browser.open("\(fleet.server.url)/map?token=\(reader)")
        try browser.wait("the van and its stop", "return document.querySelectorAll('[data-field=\"deliveryVehicle\"], [data-field=\"deliveryStop\"]').length === 2;")
        try browser.run("FleetMap.leafletMap.eachLayer(l => { if (l.getTooltip && l.getTooltip()) l.openTooltip(); });")
        try browser.wait("the tooltips open", "return document.querySelectorAll('.leaflet-tooltip').length >= 2;")
        let tips = try browser.run("return Array.from(document.querySelectorAll('.leaflet-tooltip')).map(t => t.textContent).join('\\n');") as? String ?? ""
        #expect(tips.contains(van), "the tooltips show the van's ID as text: \(tips)")
        try Self.expectClean(browser, "operator with vans")

        // The error page of an unknown hostile tracking ID.
        try browser.open("\(fleet.server.url)/map/tracking/\(Self.encoded(tracking + "x"))?token=\(server)")
        try browser.wait("the error", "return !document.getElementById('error').hidden && document.getElementById('error').textContent.length > 0;")
        try Self.expectClean(browser, "tracking error page")
    }

    /// The pages, their error pages and their assets' error pages carry the policy and refuse framing.
    @Test func everyPageForbidsInlineScriptAndFraming() throws {
        let fleet = try MapFixture()
        try fleet.createCarAndRide()
        for path in ["/map", "/map/trips/ride-1", "/map/trips/none", "/map/tracking/PARCEL-1", "/map/tracking/none", "/map/assets/none.js", "/map/nowhere"] {
            let headers = try Self.headers(fleet.server.url + path)
            let policy = headers["content-security-policy"] ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-inline"),
                    "\(path): \(headers)")
            #expect(headers["x-frame-options"] == "DENY", "\(path): \(headers)")
        }
    }
}
