@testable import fleet_admin
import FleetAuth
import FleetCLI
import FleetModel
import Testing

/// Tables, key: value blocks and cells: pure functions, checked to the character.
@Suite struct FormattingTests {
    @Test func tablesAlignColumnsToTheirWidestCell() {
        let table = TextTable(header: ["ID", "N", "NOTE"], rows: [["a", "1", "x"], ["long-id", "12345", ""]], rightAligned: [1])
        #expect(table.lines() == [
            "ID           N  NOTE",
            "a            1  x",
            "long-id  12345",
        ])
        #expect(table.naturalWidths == [7, 5, 4])
    }

    @Test func tablesShrinkTheWidestColumnsToFitAWidth() {
        let table = TextTable(header: ["ID", "LOCATION"], rows: [["vehicle-with-a-long-name", "52.52000,13.40000"]])
        let lines = table.lines(maxWidth: 30)
        #expect(lines.allSatisfy { $0.count <= 30 })
        #expect(lines[1] == "vehicle-with-…  52.52000,13.4…")
        #expect(table.widths(maxWidth: 8) == [2, 6], "never below a column's floor")
        #expect(TextTable.fitted("abcdef", width: 4) == "abc…")
        #expect(TextTable.fitted("abc", width: 3) == "abc")
    }

    @Test func headersAreStyledAfterAlignment() {
        let table = TextTable(header: ["A", "B"], rows: [["xx", "y"]])
        #expect(table.lines(headerStyle: Style(enabled: true).bold)[0] == "\u{1B}[1mA   B\u{1B}[0m")
    }

    @Test func keyValueBlocksAlignValuesAndIndentContinuations() {
        let block = KeyValueBlock([("Name", "n"), ("Empty", ""), ("Waypoints", "one\ntwo")])
        #expect(block.lines() == ["Name:       n", "Waypoints:  one", "            two"])
    }

    @Test func cells() {
        #expect(CellText.point(LatLng(latitude: 52.52, longitude: -13.4)) == "52.52000,-13.40000")
        #expect(CellText.point(LatLng(latitude: -0.000004, longitude: 0.000006)) == "0.00000,0.00001", "no negative zero")
        #expect(CellText.point(nil) == "-")
        #expect(CellText.time(Timestamp(seconds: 1_767_225_600, nanos: 500_000_000)) == "2026-01-01T00:00:00Z")
        #expect(CellText.distance(850) == "850 m")
        #expect(CellText.distance(12_449) == "12.4 km")
        #expect(CellText.distance(Int32?.none) == "-")
        #expect(CellText.duration(seconds: 245) == "4m05s")
        #expect(CellText.duration(seconds: 3720) == "1h02m")
        #expect(CellText.duration(seconds: -12) == "-12s")
        #expect(CellText.id(fromName: "providers/p/vehicles/v-1") == "v-1")
        #expect(CellText.attributes([VehicleAttribute(key: "n", vehicleAttributeValue: .numberValue(3)),
                                     VehicleAttribute(key: "b", vehicleAttributeValue: .boolValue(true)),
                                     VehicleAttribute(key: "legacy", value: "v")]) == "n=3,b=true,legacy=v")
    }

    static let vehicle = Vehicle(
        name: "providers/demo/vehicles/car-1", vehicleState: .online, supportedTripTypes: [.exclusive, .shared],
        currentTrips: ["t-1", "t-2"],
        lastLocation: VehicleLocation(location: LatLng(latitude: 52.52, longitude: 13.4), updateTime: Timestamp(seconds: 1_767_225_000),
                                      serverTime: Timestamp(seconds: 1_767_225_600)),
        maximumCapacity: 4, vehicleType: VehicleType(category: .taxi),
        waypoints: [TripWaypoint(location: TerminalLocation(point: LatLng(latitude: 52.5, longitude: 13.45)), tripId: "t-1",
                                 waypointType: .dropOffWaypointType, distanceMeters: 4200, eta: Timestamp(seconds: 1_767_226_200))])

    @Test func vehicleRowsAndDetails() {
        #expect(VehicleFormatting.row(Self.vehicle) == ["car-1", "ONLINE", "TAXI", "4", "t-1,t-2", "52.52000,13.40000", "2026-01-01T00:00:00Z"])
        #expect(VehicleFormatting.row(Vehicle()) == ["-", "-", "-", "-", "-", "-", "-"])
        let details = VehicleFormatting.details(Self.vehicle).lines()
        #expect(details.contains("Waypoints:      DROPOFF t-1 52.50000,13.45000 ETA 2026-01-01T00:10:00Z 4.2 km"))
        #expect(details.contains("Location time:  2026-01-01T00:00:00Z"), "the server's time wins over the device's")
        #expect(details.first == "Name:           providers/demo/vehicles/car-1")
        #expect(!details.contains { $0.hasPrefix("Estimated legs") }, "every leg on roads: nothing said")

        // A leg of the server's plan that no road covers is named by its waypoint, with the router's reason.
        var estimated = Self.vehicle
        estimated.estimatedLegs = [EstimatedRouteLeg(leg: 0, cause: "ROUTE_NOT_FOUND", reason: "no motorcar route to to 52.5,13.45")]
        #expect(VehicleFormatting.details(estimated).lines()
            .contains("Estimated legs:  to waypoint 1 (DROPOFF t-1): ROUTE_NOT_FOUND no motorcar route to to 52.5,13.45"))
    }

    @Test func tripRowsAndDetails() {
        let trip = Trip(name: "providers/demo/trips/t-1", vehicleId: "car-1", tripStatus: .enrouteToPickup, tripType: .exclusive,
                        pickupPoint: TerminalLocation(point: LatLng(latitude: 1, longitude: 2)),
                        intermediateDestinations: [TerminalLocation(point: LatLng(latitude: 3, longitude: 4))],
                        intermediateDestinationIndex: 0,
                        dropoffPoint: TerminalLocation(terminalPointId: TerminalPointId(value: "place-9")),
                        remainingDistanceMeters: 1500, etaToFirstWaypoint: Timestamp(seconds: 1_767_225_660))
        #expect(TripFormatting.row(trip) == ["t-1", "ENROUTE_TO_PICKUP", "EXCLUSIVE", "car-1", "1.00000,2.00000", "place-9", "2026-01-01T00:01:00Z"])
        let text = TripFormatting.details(trip).lines().joined(separator: "\n")
        #expect(text.value(of: "Stops") == "0: 3.00000,4.00000 (current)")
        #expect(text.value(of: "Next waypoint") == "1.5 km")
        #expect(TripFormatting.table([trip, Trip(name: "providers/demo/trips/t-2")]).lines()[2] == "t-2  -                  -          -        -                -        -")
    }

    @Test func matchRows() {
        let match = VehicleMatch(vehicle: Self.vehicle, vehiclePickupEta: Timestamp(seconds: 1_767_225_900),
                                 vehiclePickupStraightLineDistanceMeters: 320, vehicleMatchType: .backToBack)
        #expect(MatchFormatting.row(match) == ["car-1", "ONLINE", "TAXI", "4", "t-1,t-2", "BACK_TO_BACK", "2026-01-01T00:05:00Z", "320 m", "52.52000,13.40000"])
    }

    @Test func progressBars() {
        #expect(ProgressBar.line(label: "Listing vehicles", done: 120, total: 240, width: 80)
                == "Listing vehicles [####################--------------------]  120/240")
        #expect(ProgressBar.line(label: "Importing", done: 7, total: nil, width: 80) == "Importing… 7")
        #expect(ProgressBar.line(label: "X", done: 500, total: 10, width: 30) == "X [###################]  10/10", "clamped and narrowed")
    }

    @Test func progressIsDrawnOnATerminalOnly() {
        let terminal = CapturedOutput(isTerminal: true)
        let reporter = ProgressReporter(label: "Exporting", output: terminal, width: 40)
        reporter.update(done: 1, total: 2)
        reporter.finish()
        #expect(terminal.text == "\r\u{1B}[KExporting [###########------------]  1/2\r\u{1B}[K")
        let pipe = CapturedOutput(isTerminal: false)
        let quiet = ProgressReporter(label: "Exporting", output: pipe)
        quiet.update(done: 1, total: 2)
        quiet.finish()
        #expect(pipe.text == "")
    }

    @Test func tokenReportsShowTimesRelativeToNow() throws {
        let claims = JWTClaims(issuer: "me", subject: "me", audience: .single("aud"), issuedAt: 1_767_225_600, expiresAt: 1_767_227_400,
                               authorization: AuthorizationScope(vehicleID: "car-1"), role: "driver")
        let jwt = JWT(header: JWTHeader(algorithm: .hs256, keyID: nil), claims: claims, signature: [1, 2])
        let fresh = TokenReport(jwt: jwt, verification: .verified(role: .driver), now: 1_767_225_660).block.lines().joined(separator: "\n")
        #expect(fresh.value(of: "Expires") == "2026-01-01T00:30:00Z (1767227400) (in 29m00s)")
        #expect(fresh.value(of: "Lifetime") == "30m00s")
        #expect(fresh.value(of: "Authorization") == "vehicleid=car-1")
        #expect(fresh.value(of: "Signature") == "verified (HS256); acts as driver")
        let late = TokenReport(jwt: jwt, verification: .failed("expired"), now: 1_767_227_580)
        #expect(late.block.lines().joined(separator: "\n").value(of: "Expires")?.hasSuffix("(expired 3m00s ago)") == true)
        #expect(late.json["verification"] == ["checked": true, "valid": false, "error": "expired", "expiresInSeconds": -180])
    }
}
