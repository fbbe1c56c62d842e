import FleetTestSupport
import Foundation
import Testing

/// `fleet-admin history`, `trips report`, the REST history extension and `serve --history-retention`,
/// run as binaries.
@Suite("History commands")
struct HistoryCommandTests {
    /// The drive the tests report: four fixes about 1.1 km apart along a meridian, on trip-1.
    static let route = ["60.1700,24.9400", "60.1800,24.9400", "60.1900,24.9400", "60.2000,24.9400"]

    /// car-1 created online at the first fix, trip-1 assigned to it, then the other fixes reported.
    static func drive(_ fleet: AdminFleet, token: String? = nil) throws {
        let pre = token.map { ["--token", $0] } ?? []
        try fleet.succeed(pre + ["vehicles", "create", "car-1", "--capacity", "4", "--state", "online", "--location", "60.1690,24.9400"])
        try fleet.succeed(pre + ["trips", "create", "trip-1", "--pickup", "60.17,24.94", "--dropoff", "60.20,24.94", "--vehicle", "car-1"])
        for fix in route {
            try fleet.succeed(pre + ["vehicles", "update", "car-1", "--location", fix])
        }
    }

    @Test(arguments: AdminTransport.allCases)
    func theCSVIsATraceFileTheETAEvaluatorReads(_ transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        try Self.drive(fleet)
        let run = try fleet.run(["history", "car-1"])
        #expect(run.status == 0, "\(run)")
        #expect(run.error.hasPrefix("1 of 5 points served no trip and are not in the CSV"), "\(run)")
        let csv = run.output
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "trip_id,timestamp,latitude,longitude,vehicle_id,speed,accuracy,heading,vehicle_state")
        // The creation's fix served no trip: a trace holds the four that did.
        #expect(lines.count == 5, "\(csv)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("trip-1,") && $0.contains(",car-1,") && $0.hasSuffix(",ONLINE") })
        #expect(lines[1].contains(",60.17,24.94,"))
        let file = try fleet.write("trace.csv", csv)
        let eta = try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", file, "--json"])
        #expect(eta.status == 0, "\(eta)")
        #expect(eta.output.contains("\"drives\""), "\(eta)")
    }

    @Test func everyFormatAndFilterOfOneVehicle() throws {
        let fleet = try AdminFleet(.memory)
        try Self.drive(fleet)
        let jsonl = try fleet.succeed(["history", "car-1", "--format", "jsonl"]).split(separator: "\n")
        #expect(jsonl.count == 5)
        #expect(jsonl[0].contains(#""location":{"latitude":60.169,"longitude":24.94}"#))
        #expect(!jsonl[0].contains("tripIds"))
        #expect(jsonl[1].contains(#""tripIds":["trip-1"]"#) && jsonl[1].contains(#""vehicleState":"ONLINE""#))
        #expect(try fleet.succeed(["history", "car-1", "--trip", "trip-1", "--format", "jsonl"]).split(separator: "\n").count == 4)
        #expect(try fleet.succeed(["history", "car-1", "--trip", "trip-2", "--format", "jsonl"]).isEmpty)
        let gpx = try fleet.succeed(["history", "car-1", "--format", "gpx"])
        #expect(gpx.hasPrefix("<?xml") && gpx.contains("<trkpt lat=\"60.2\" lon=\"24.94\"><time>") && gpx.hasSuffix("</gpx>\n"))
        let geojson = try fleet.succeed(["history", "car-1", "--format", "geojson"])
        let collection = try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any]
        #expect((collection?["features"] as? [Any])?.count == 5)
        // A span that ends before the first fix holds nothing; one from the epoch holds everything.
        #expect(try fleet.succeed(["history", "car-1", "--format", "jsonl", "--to", "2000-01-01T00:00:00Z"]).isEmpty)
        #expect(try fleet.succeed(["history", "car-1", "--format", "jsonl", "--from", "0"]).split(separator: "\n").count == 5)
        let bad = try fleet.run(["history", "car-1", "--from", "yesterday"])
        #expect(bad.status == 2 && bad.error.contains("--from"), "\(bad)")
        let backwards = try fleet.run(["history", "car-1", "--from", "2026-01-02T00:00:00Z", "--to", "2026-01-01T00:00:00Z"])
        #expect(backwards.status == 13 && backwards.error.contains("to"), "\(backwards)")
    }

    @Test(arguments: [AdminTransport.memory, .http])
    func aFinishedTripIsReported(_ transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        try Self.drive(fleet)
        let unfinished = try fleet.run(["trips", "report", "trip-1"])
        #expect(unfinished.status == 19 && unfinished.error.contains("TRIP_NOT_FINISHED"), "\(unfinished)")
        try fleet.succeed(["trips", "cancel", "trip-1"])
        let text = try fleet.succeed(["trips", "report", "trip-1", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(report["tripId"] as? String == "trip-1")
        #expect(report["points"] as? Int == 4)
        // Three steps of 0.01° of latitude: 3 × 1,113 m.
        let meters = try #require(report["distanceMeters"] as? Double)
        #expect(abs(meters - 3_336) < 5, "\(text)")
        #expect((report["durationSeconds"] as? Double ?? -1) >= 0)
        #expect(report["topSpeedKmh"] != nil && report["averageSpeedKmh"] != nil && report["standingSeconds"] != nil)
        #expect(try fleet.succeed(["trips", "report", "trip-1"]).contains("distance:  3.33 km"))
    }

    /// A server checking tokens of provider demo, driven by `drive` with a server token; `body` gets
    /// the tokens and a GET of a target with a token (none: no Authorization header).
    static func withCheckingServer(drive: (AdminFleet, String) throws -> Void,
                                   _ body: (MintedTokens, (String, String?) throws -> RawHTTP.Answer) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokens = try MintedTokens(folder: folder, provider: "demo")
        let fleet = try AdminFleet(.http, serverArguments: tokens.serverArguments)
        try drive(fleet, try tokens.mint(role: "server"))
        let base = try #require(fleet.baseURL)
        try body(tokens) { target, token in
            try RawHTTP.exchange(base, RawHTTP.request("GET", target, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? []))
        }
    }

    @Test func theRESTExtensionIsAuthorisedAsGetVehicleAndATripsConsumerReadsItsPath() throws {
        try Self.withCheckingServer(drive: { try Self.drive($0, token: $1) }) { tokens, get in
            let vehicle = "/v1/providers/demo/vehicles/car-1:history"
            let trip = "/v1/providers/demo/trips/trip-1:history"
            let server = try get(vehicle + "?pageSize=2", try tokens.mint(role: "server"))
            #expect(server.status == 200 && server.body.contains("nextPageToken"), "\(server.body)")
            #expect(try get(vehicle, nil).status == 403, "no token: PERMISSION_DENIED, as for GetVehicle")
            #expect(try get(vehicle, try tokens.mint(role: "driver", ["--vehicle", "car-1"])).status == 200)
            #expect(try get(vehicle, try tokens.mint(role: "driver", ["--vehicle", "car-2"])).status == 403)
            #expect(try get(vehicle, try tokens.mint(role: "consumer", ["--trip", "trip-1"])).status == 403)
            let rider = try get(trip, try tokens.mint(role: "consumer", ["--trip", "trip-1"]))
            #expect(rider.status == 200 && rider.body.contains(#""tripIds":["trip-1"]"#), "\(rider.body)")
            #expect(try get(trip, try tokens.mint(role: "consumer", ["--trip", "trip-2"])).status == 403)
            let unknown = try get(vehicle + "?since=1", try tokens.mint(role: "server"))
            #expect(unknown.status == 400 && unknown.body.contains("since"), "\(unknown.body)")
            #expect(try get("/v1/providers/demo/trips/nope:history", try tokens.mint(role: "server")).status == 404)
        }
    }

    /// van-1, a delivery vehicle, created at the first fix and moved along the rest.
    static func driveDeliveryVehicle(_ fleet: AdminFleet, token: String? = nil) throws {
        let pre = token.map { ["--token", $0] } ?? []
        try fleet.succeed(pre + ["delivery-vehicles", "create", "van-1", "--location", "60.1690,24.9400"])
        for fix in route {
            try fleet.succeed(pre + ["delivery-vehicles", "update", "van-1", "--location", fix])
        }
    }

    @Test(arguments: [AdminTransport.memory, .http])
    func aDeliveryVehiclesHistoryIsReadWithTheDeliveryVehicleFlag(_ transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        try Self.driveDeliveryVehicle(fleet)
        let jsonl = try fleet.succeed(["history", "--delivery-vehicle", "van-1", "--format", "jsonl"]).split(separator: "\n")
        #expect(jsonl.count == 5, "\(jsonl)")
        #expect(jsonl[0].contains(#""vehicleId":"van-1""#) && jsonl[0].contains(#""location":{"latitude":60.169,"longitude":24.94}"#))
        #expect(jsonl[4].contains(#""latitude":60.2"#) && !jsonl[4].contains("tripIds"))
        #expect(try fleet.succeed(["history", "--delivery-vehicle", "providers/demo/deliveryVehicles/van-1", "--format", "jsonl"])
            .split(separator: "\n").count == 5)
        let csv = try fleet.run(["history", "--delivery-vehicle", "van-1"])
        #expect(csv.status == 0 && csv.output.split(separator: "\n").count == 1, "a header alone: \(csv)")
        #expect(csv.error.hasPrefix("5 of 5 points served no trip"), "\(csv)")
        // A rides vehicle of that ID has driven nowhere.
        #expect(try fleet.succeed(["history", "van-1", "--format", "jsonl"]).isEmpty)
        let gpx = try fleet.succeed(["history", "--delivery-vehicle", "van-1", "--format", "gpx"])
        #expect(gpx.contains("<trkpt lat=\"60.2\" lon=\"24.94\">"), "\(gpx)")
        let both = try fleet.run(["history", "van-1", "--delivery-vehicle", "van-1"])
        #expect(both.status == 2 && both.error.contains("--delivery-vehicle"), "\(both)")
        let neither = try fleet.run(["history"])
        #expect(neither.status == 2 && neither.error.contains("--delivery-vehicle"), "\(neither)")
        let trip = try fleet.run(["history", "--delivery-vehicle", "van-1", "--trip", "t1"])
        #expect(trip.status == 2 && trip.error.contains("--trip"), "\(trip)")
    }

    @Test func theRESTExtensionAnswersForADeliveryVehicleAsGetDeliveryVehicle() throws {
        try Self.withCheckingServer(drive: { try Self.driveDeliveryVehicle($0, token: $1) }) { tokens, get in
            let van = "/v1/providers/demo/deliveryVehicles/van-1:history"
            let server = try get(van + "?pageSize=2", try tokens.mint(role: "server"))
            #expect(server.status == 200 && server.body.contains(#""vehicleId":"van-1""#) && server.body.contains("nextPageToken"), "\(server.body)")
            #expect(try get(van, nil).status == 403, "no token: PERMISSION_DENIED, as for GetDeliveryVehicle")
            #expect(try get(van, try tokens.mint(role: "driver", ["--delivery-vehicle", "van-1"])).status == 200)
            #expect(try get(van, try tokens.mint(role: "driver", ["--delivery-vehicle", "van-2"])).status == 403)
            #expect(try get(van, try tokens.mint(role: "fleet-reader")).status == 200)
            #expect(try get(van, try tokens.mint(role: "consumer", ["--tracking", "PARCEL-1"])).status == 403)
            // Each token reads the history exactly when it may GetDeliveryVehicle.
            let tokensToTry = [try tokens.mint(role: "driver", ["--vehicle", "van-1"]), try tokens.mint(role: "trusted-driver", ["--delivery-vehicle", "van-1"]),
                               try tokens.mint(role: "trusted-driver", ["--delivery-vehicle", "van-2"]), try tokens.mint(role: "consumer", ["--trip", "t1"])]
            for token in tokensToTry {
                #expect(try get(van, token).status == get("/v1/providers/demo/deliveryVehicles/van-1", token).status)
            }
            let trip = try get(van + "?tripId=t1", try tokens.mint(role: "server"))
            #expect(trip.status == 400 && trip.body.contains("tripId"), "\(trip.body)")
        }
    }

    @Test func retentionZeroKeepsNothingAndAShortOnePrunesAtStart() throws {
        // Points kept by an engine in another process, then a server whose retention they are past.
        let fleet = try AdminFleet(.memory)
        try Self.drive(fleet)
        Thread.sleep(forTimeInterval: 1.2)
        let pruning = try ServerProcess(store: fleet.storeURL, arguments: ["--history-retention", "1s"])
        var left = ""
        for _ in 0..<100 {
            left = try BinaryRunner(product: "fleet-admin").run(["--transport", pruning.url, "--provider", "demo", "history", "car-1", "--format", "jsonl"]).output
            if left.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(left.isEmpty, "the pruner left \(left)")
        _ = pruning.stop()
        // A bare number under an hour may be meant as days: the server says what it keeps. A unit is taken as meant.
        let bare = try ServerProcess(arguments: ["--history-retention", "30"])
        bare.stop()
        #expect(bare.standardError.contains("--history-retention 30 keeps each point for 30s only: a bare number is seconds (30d is 30 days)"),
                "\(bare.standardError)")
        for quiet in [["--history-retention", "0"], ["--history-retention", "1s"], ["--history-retention", "2m"], ["--history-retention", "3600"], []] {
            let server = try ServerProcess(arguments: quiet)
            server.stop()
            #expect(server.standardError.contains("stopped") && !server.standardError.contains("keeps each point"), "\(quiet): \(server.standardError)")
        }

        let none = try AdminFleet(.http, serverArguments: ["--history-retention", "0"])
        try Self.drive(none)
        #expect(try none.succeed(["history", "car-1", "--format", "jsonl"]).isEmpty)
        let bad = try none.runBare(["serve", "--history-retention", "a month"])
        #expect(bad.status == 2 && bad.error.contains("--history-retention"), "\(bad)")
    }
}
