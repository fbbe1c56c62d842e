import FleetTestSupport
import Foundation
import Testing

/// Runs the built `fleet-bench eta` on small trace files the test writes and removes.
struct FleetBenchETATests {
    /// A trace of one drive due east at 40 km/h (AUTO's default speed) for ten minutes, a fix every 5 s,
    /// and a second drive, at a walking pace, that the speed filter leaves out.
    private func steadyTrace() -> String {
        var lines = ["trip_id,timestamp,latitude,longitude"]
        let metersPerDegreeLongitude = 111_195.08 * cos(62.6 * Double.pi / 180)
        for (trip, speed) in [("car", 40 / 3.6), ("walk", 1.3)] {
            for step in 0...120 {
                let t = Double(step) * 5
                lines.append("\(trip),\(1_700_000_000 + t),62.6,\(29.76 + speed * t / metersPerDegreeLongitude)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func withTrace<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let folder = try Products.temporaryDirectory("fleet-bench-eta")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("drives.csv")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try body(file.path)
    }

    @Test func jsonOfASteadyDriveIsExactAlongTheRouteAndThirtyPercentOffInAStraightLine() throws {
        let result = try withTrace(steadyTrace()) { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path, "--minimum-average-kmh", "20", "--json"])
        }
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)")
        #expect(object["drives"] as? Int == 1)
        // Points more than two minutes out: 600 s of drive, a fix every 5 s, those with 125…600 s to go.
        #expect(object["points"] as? Int == 96)
        let median = try #require(object["medianErrorPercent"] as? Double)
        let p90 = try #require(object["p90ErrorPercent"] as? Double)
        #expect(median >= 0 && median < 1, "\(result.output)")
        #expect(p90 >= median && p90 < 1, "\(result.output)")
        let straight = try #require(object["straightLine"] as? [String: Any])
        #expect(abs((straight["medianErrorPercent"] as? Double ?? 0) - 30) < 1, "\(result.output)")
        let waits = try #require(object["withoutWaits"] as? [String: Any])
        #expect(waits["drives"] as? Int == 1)
    }

    @Test func aRouterPlansEachDrivesRoute() throws {
        // The drive runs straight east: a straight router's route from its first to its last fix is its path.
        let result = try withTrace(steadyTrace()) { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path, "--minimum-average-kmh", "20", "--router", "straight", "--json"])
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.error.contains("routes from straight; 0 of 2 drives had no route"), "\(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)")
        #expect((object["medianErrorPercent"] as? Double ?? 100) < 1, "\(result.output)")
        let bad = try withTrace(steadyTrace()) { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path, "--router", "osrm:x"])
        }
        #expect(bad.status == 2 && bad.error.contains("routino:DIR"), "\(bad)")
    }

    @Test func tableNamesTheBandsAndBaselines() throws {
        let result = try withTrace(steadyTrace()) { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path])
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.output.hasPrefix("ETA error as driven: 2 drives\n"), "\(result)")
        for text in ["2–5 min", "5–10 min", "route, observed speed (no history)", "straight line (no route)",
                     "route, default speed", "ETA error with the waits cut out"] {
            #expect(result.output.contains(text), "\(text)")
        }
    }

    /// A slow drive (20 km/h) due east, leaving `day` days after the trace's first.
    private func slowTrace(id: String, day: Double) -> String {
        let metersPerDegreeLongitude = 111_195.08 * cos(62.6 * Double.pi / 180)
        return (0...120).map { step in
            let t = Double(step) * 5
            return "\(id),\(1_700_000_000 + day * 86_400 + t),62.6,\(29.76 + 20 / 3.6 * t / metersPerDegreeLongitude)"
        }.joined(separator: "\n")
    }

    @Test func historyJudgesTheLearnedEstimateBesideTheEngineWithoutIt() throws {
        let folder = try Products.temporaryDirectory("fleet-bench-eta-history")
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = "trip_id,timestamp,latitude,longitude\n"
        let test = folder.appendingPathComponent("test.csv"), history = folder.appendingPathComponent("history.csv")
        try (header + slowTrace(id: "today", day: 7) + "\n").write(to: test, atomically: true, encoding: .utf8)
        try (header + slowTrace(id: "last-week", day: 0) + "\n").write(to: history, atomically: true, encoding: .utf8)
        let result = try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", test.path, "--history", history.path, "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)")
        // Learned from last week's identical drive: close; the engine without history starts at 40 km/h.
        #expect((object["medianErrorPercent"] as? Double ?? 100) < 3, "\(result.output)")
        let without = try #require(object["withoutHistory"] as? [String: Any])
        #expect((without["p90ErrorPercent"] as? Double ?? 0) > 20, "\(result.output)")
        #expect(object["plainHistory"] is [String: Any])
        let score = try #require(object["etaAccuracyBenchmark"] as? [String: Any])
        #expect(score["meanPercent"] is Double && (score["windows"] as? [Any])?.count == 4)

        let table = try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", test.path, "--history", history.path])
        #expect(table.output.contains("route, learned times (engine)") && table.output.contains("ETA Accuracy Benchmark"), "\(table)")
        let missing = try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", test.path, "--history", folder.appendingPathComponent("none.csv").path])
        #expect(missing.status == 13 && missing.error.contains("history"), "\(missing)")
        #expect(!result.error.contains("also in --history"), "\(result)")
        let same = try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", test.path, "--history", test.path, "--json"])
        #expect(same.status == 0 && same.error.contains("1 of 1 drives of --traces are also in --history"), "\(same)")
        let lone = try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", test.path, "--cross-validate"])
        #expect(lone.status == 2 && lone.error.contains("--cross-validate"), "\(lone)")
    }

    @Test func crossValidationAndTownsRunFromTheCommandLine() throws {
        let both = "trip_id,timestamp,latitude,longitude\n" + slowTrace(id: "a", day: 0) + "\n" + slowTrace(id: "b", day: 7) + "\n"
        let result = try withTrace(both) { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path, "--cross-validate", "--json"])
        }
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)")
        #expect(object["drives"] as? Int == 2 && (object["medianErrorPercent"] as? Double ?? 100) < 3, "\(result.output)")
        let town = try BinaryRunner(product: "fleet-bench").run(["eta", "--town", "20", "--seed", "3", "--json"])
        #expect(town.status == 0, "\(town)")
        let judged = try #require(try JSONSerialization.jsonObject(with: Data(town.output.utf8)) as? [String: Any], "\(town)")
        #expect(judged["drives"] as? Int == 10 && judged["withoutHistory"] is [String: Any], "\(town.output)")
    }

    @Test func pointsWritesEveryReplayedPointWithHowLateTheDriveRuns() throws {
        let both = "trip_id,timestamp,latitude,longitude\n" + slowTrace(id: "a", day: 0) + "\n" + slowTrace(id: "b", day: 7) + "\n"
        let folder = try Products.temporaryDirectory("fleet-bench-eta-points")
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = folder.appendingPathComponent("points.csv")
        let result = try withTrace(both) { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path, "--cross-validate", "--json", "--points", points.path])
        }
        #expect(result.status == 0, "\(result)")
        let lines = try String(contentsOf: points, encoding: .utf8).split(separator: "\n")
        let header = lines.first.map { $0.split(separator: ",").map(String.init) } ?? []
        #expect(header.first == "drive" && header.contains("learned_driven_seconds") && header.contains("stood_seconds"), "\(header)")
        // Two drives of 121 fixes, each judged at every fix but its last.
        #expect(lines.count == 1 + 2 * 120, "\(lines.count)")
        let watched = try #require(header.firstIndex(of: "watched_seconds"))
        let driven = try #require(header.firstIndex(of: "learned_driven_seconds"))
        // Each drive keeps to what the other taught: the learned time over the way driven is the time it took.
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let late = (Double(fields[watched]) ?? .nan) - (Double(fields[driven]) ?? .nan)
            #expect(abs(late) < 10, "\(line)")
        }
        let unwritable = try withTrace(both) { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path, "--points", folder.appendingPathComponent("no/such/folder.csv").path])
        }
        #expect(unwritable.status == 13 && unwritable.error.contains("UNWRITABLE_OUTPUT"), "\(unwritable)")
    }

    @Test func badRowGivesInvalidArgumentNamingLineAndColumn() throws {
        let result = try withTrace("trip_id,timestamp,latitude,longitude\na,1700000000,62.6,29.76\na,noon,62.6,29.77\n") { path in
            try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", path, "--json"])
        }
        #expect(result.status == 13, "\(result)")
        #expect(result.output == "")
        // The report is wrapped to the terminal's width: compare with the line breaks as spaces.
        let message = result.error.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(message.contains("drives.csv line 3, column timestamp: 'noon' is neither RFC 3339 nor epoch seconds"), "\(result)")
        #expect(result.error.contains("MALFORMED_TRACE_FILE"), "\(result)")
    }

    @Test func missingTracesIsAUsageError() throws {
        let result = try BinaryRunner(product: "fleet-bench").run(["eta", "--json"])
        #expect(result.status == 2, "\(result)")
        #expect(result.error.contains("--traces"), "\(result)")
        let missing = try BinaryRunner(product: "fleet-bench").run(["eta", "--traces", "/nonexistent/drives.csv"])
        #expect(missing.status == 13, "\(missing)")
        #expect(missing.error.contains("/nonexistent/drives.csv"), "\(missing)")
    }

    @Test func simulatedDrivesNeedNoFile() throws {
        let result = try BinaryRunner(product: "fleet-bench").run(["eta", "--simulated", "3", "--seed", "5", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["drives"] as? Int == 3)
        #expect(object["medianErrorPercent"] as? Double != nil)
    }
}
