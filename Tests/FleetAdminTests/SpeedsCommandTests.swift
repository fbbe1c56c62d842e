import FleetTestSupport
import Foundation
import Testing

/// `fleet-admin speeds learn|show|clear` on the store a running `fleet-admin serve` writes: learning from the
/// position history the server kept (each span once) and from a trace file, what `show` lists, and what `clear` forgets.
@Suite("fleet-admin speeds")
struct SpeedsCommandTests {
    /// `fleet-admin speeds …` with `--json` on the fleet's store (the command opens the store, not the server).
    static func speeds(_ fleet: AdminFleet, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let result = try BinaryRunner(product: "fleet-admin").run(
            ["--store", fleet.storeURL, "--provider", fleet.provider, "speeds"] + arguments + ["--json"])
        #expect(result.status == 0, "speeds \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)",
                            sourceLocation: sourceLocation)
    }

    @Test func learnFromTheServersHistoryOnceThenFromTracesShowAndClear() throws {
        let fleet = try AdminFleet(.http)
        let base = try #require(fleet.baseURL)
        let empty = try Self.speeds(fleet, ["show"])
        #expect(empty["pieces"] as? Int == 0 && (empty["top"] as? [Any])?.isEmpty == true, "\(empty)")

        // A bus drove 1,200 m east at 8 m/s, a fix every 5 s, ten minutes ago.
        try fleet.succeed(["vehicles", "create", "bus", "--capacity", "4", "--state", "online"])
        let started = Date().timeIntervalSince1970 - 600
        for step in 0...30 {
            let seconds = Double(step) * 5
            let answer = try LiveTrafficServeTests.patch(base, vehicle: "bus", mask: "lastLocation", """
                {"lastLocation":{"location":{"latitude":52.5,"longitude":\(LiveTrafficServeTests.longitude(seconds * 8))},"updateTime":"\(LiveTrafficServeTests.rfc3339(started + seconds))"}}
                """)
            #expect(answer.status == 200, "\(answer.body)")
        }
        let learned = try Self.speeds(fleet, ["learn"])
        #expect(learned["points"] as? Int == 31 && learned["vehicles"] as? Int == 1, "\(learned)")
        let pieces = try #require(learned["totalPieces"] as? Int)
        #expect(pieces >= 20 && (learned["rows"] as? Int ?? 0) >= pieces, "1,200 m is 24 pieces of 50 m: \(learned)")
        let again = try Self.speeds(fleet, ["learn"])
        #expect(again["points"] as? Int == 0 && again["totalPieces"] as? Int == pieces, "each span is learned once: \(again)")

        let shown = try Self.speeds(fleet, ["show", "--limit", "3"])
        #expect(shown["pieces"] as? Int == pieces, "\(shown)")
        let top = try #require(shown["top"] as? [[String: Any]])
        #expect(top.count == 3 && top.allSatisfy { $0["heading"] as? String == "E" }, "\(top)")
        let kmh = top.compactMap { $0["weekKmh"] as? Double }
        #expect(kmh.count == 3 && kmh.allSatisfy { abs($0 - 28.8) < 3 }, "8 m/s is 28.8 km/h: \(kmh)")

        // A trace file adds another street (further north), and its pieces.
        var csv = "trip_id,timestamp,latitude,longitude\n"
        for t in stride(from: 0.0, through: 120, by: 5) {
            csv += "d1,\(Int(1_769_385_600 + t)),52.51,\(LiveTrafficServeTests.longitude(t * 10))\n"
        }
        let traced = try Self.speeds(fleet, ["learn", "--traces", try fleet.write("drives.csv", csv)])
        #expect(traced["drives"] as? Int == 1, "\(traced)")
        let added = try #require(traced["pieces"] as? Int)
        #expect(added >= 20 && traced["totalPieces"] as? Int == pieces + added, "\(traced)")

        // Clearing forgets both, and the history's mark: the next learning learns the whole history again.
        let cleared = try Self.speeds(fleet, ["clear"])
        #expect((cleared["removedTiles"] as? Int ?? 0) >= 1, "\(cleared)")
        #expect(try Self.speeds(fleet, ["show"])["pieces"] as? Int == 0)
        #expect(try Self.speeds(fleet, ["clear"])["removedTiles"] as? Int == 0, "nothing left to clear")
        let relearned = try Self.speeds(fleet, ["learn"])
        #expect(relearned["points"] as? Int == 31 && relearned["totalPieces"] as? Int == pieces, "\(relearned)")
    }

    @Test func badInputIsAUsageErrorNamingIt() throws {
        let fleet = try AdminFleet(.http)
        let base = try #require(fleet.baseURL)
        let runner = try BinaryRunner(product: "fleet-admin")
        let overHTTP = try runner.run(["--transport", base, "--provider", "demo", "speeds", "show"])
        #expect(overHTTP.status == 2 && overHTTP.error.contains("--store"), "\(overHTTP)")
        let limit = try runner.run(["--store", fleet.storeURL, "--provider", "demo", "speeds", "show", "--limit", "-1"])
        #expect(limit.status == 2 && limit.error.contains("--limit"), "\(limit)")
        let missing = try runner.run(["--store", fleet.storeURL, "--provider", "demo", "speeds", "learn", "--traces", fleet.path("none.csv")])
        #expect(missing.status != 0 && missing.status != 2 && missing.error.contains("none.csv"), "\(missing)")
    }
}
