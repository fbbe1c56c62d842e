import FleetDriver
import FleetErrors
import FleetLocation
import FleetModel
import Foundation
import Synchronization
import Testing

@Suite("Status file and log lines")
struct OutputTests {
    @Test("The status file holds every counter as JSON and is replaced atomically")
    func statusFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var statistics = ReporterStatistics()
        statistics.state = .reporting
        statistics.updatesSent = 3
        statistics.updatesSucceeded = 2
        statistics.updatesFailed = 1
        statistics.failuresByCode = ["UNAVAILABLE": 1]
        statistics.emptyMaskFailures = 0
        statistics.locationsReceived = 9
        statistics.locationsCoalesced = 6
        statistics.droppedJumps = 1
        statistics.source.bad = 4
        statistics.lastError = ErrorText.explained(FleetError(.serverUnavailable))
        statistics.lastReportedLocation = LatLng(latitude: 52, longitude: 5)
        let vehicle = try VehicleName(provider: "demo", vehicleID: "cab-1")
        let file = StatusFile(path: folder.appendingPathComponent("status.json").path)
        try file.write(statistics.json(vehicle: .vehicle(vehicle), writtenAt: Timestamp(seconds: 0)))
        statistics.updatesSent = 4
        try file.write(statistics.json(vehicle: .vehicle(vehicle), writtenAt: Timestamp(seconds: 1)))
        let json = try JSON.parse(try String(contentsOfFile: file.path, encoding: .utf8))
        #expect(json["vehicle"] == "providers/demo/vehicles/cab-1")
        #expect(json["state"] == "REPORTING")
        #expect(json["updatesSent"] == 4)
        #expect(json["failuresByCode"]?["UNAVAILABLE"] == 1)
        #expect(json["badSentences"] == 4)
        #expect(json["droppedJumps"] == 1)
        #expect(json["locationsCoalesced"] == 6)
        #expect(json["emptyMaskFailures"] == 0)
        #expect(json["lastError"]?.stringValue?.hasPrefix("UNAVAILABLE") == true)
        #expect(json["lastLocation"]?["latitude"] == 52)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["status.json"], "no temporary file left")
        #expect(statistics.summary.contains("sent=4 succeeded=2 failed=1 failures=UNAVAILABLE:1"))
    }

    @Test("A status file in a missing folder is an error naming the path")
    func statusFileError() {
        let error = #expect(throws: FleetError.self) {
            try StatusFile(path: "/nonexistent-folder/status.json").write(JSON.object(JSONObject()))
        }
        #expect(error?.message.contains("/nonexistent-folder/status.json") == true)
    }

    @Test("Text lines carry time, level, event, message and fields; journald lines carry the priority instead")
    func textLines() {
        let fields: [(String, JSON)] = [("code", "UNAVAILABLE"), ("retry_in_s", 12.5), ("note", "two words")]
        let line = EventLog.line(format: .text, forJournal: false, time: 1_800_000_000.25, level: .warning,
                                 event: "update-failed", message: "server down\nretrying", fields: fields)
        #expect(line == #"2027-01-15T08:00:00.250Z warning update-failed: server down retrying code=UNAVAILABLE retry_in_s=12.5 note="two words""#)
        let journal = EventLog.line(format: .text, forJournal: true, time: 0, level: .info, event: "started", message: "ok", fields: [])
        #expect(journal == "<6>info started: ok")
    }

    @Test("JSON lines are one object each, with the fields as members")
    func jsonLines() throws {
        let line = EventLog.line(format: .json, forJournal: false, time: 0, level: .notice, event: "offline", message: "done",
                                 fields: [("attempts", 2)])
        let json = try JSON.parse(line)
        #expect(json["event"] == "offline")
        #expect(json["level"] == "notice")
        #expect(json["attempts"] == 2)
        #expect(!line.contains("\n"))
    }

    @Test("Lines below the log's level are left out")
    func levels() {
        let written = Mutex<[String]>([])
        let log = EventLog(format: .text, minimumLevel: .notice, now: { 0 }, write: { line in written.withLock { $0.append(line) } })
        log.log(.info, "update-succeeded", "routine")
        log.log(.notice, "started", "kept")
        log.log(.error, "failed", "kept")
        #expect(written.withLock { $0.count } == 2)
    }
}
