import FleetModel
import Foundation
import Testing

/// `consumer-follow --tracking-id` run as a program against a real `fleet-admin serve`, following a
/// shipment the test drives through the server's store: its events (stops before ours, ETA, the van
/// when its view config shows it, state and outcome), the stale van, and its exit codes.
@Suite(.serialized) struct ShipmentBinaryTests {
    static func events(_ process: FollowProcess) -> [JSON] {
        process.lines.compactMap { try? JSON.parse($0) }
    }

    static func values(_ name: String, _ process: FollowProcess) -> [JSON] {
        events(process).filter { $0["event"] == .string(name) }.compactMap { $0["value"] }
    }

    @Test func followsAShipmentUntilItIsDelivered() throws {
        let shipment = try SharedStoreShipment()
        let process = try FollowProcess(shipment.arguments + ["--json", "--interval", "1s"])
        #expect(process.waitForLines { _ in !Self.values("estimatedArrivalTime", process).isEmpty }, "\(process.error)")
        let first = Self.events(process)
        #expect(first.first?["event"] == "shipment")
        #expect(first.allSatisfy { $0["shipment"] == .string(shipment.trackingName) })
        #expect(first.first?["value"]?["taskTrackingInfo"]?["name"] == .string(shipment.trackingName))
        #expect(Self.values("taskState", process) == ["OPEN"])
        #expect(Self.values("remainingStopCount", process) == [["remainingStopCount": 2, "stopsBefore": 1]])
        let van = try #require(Self.values("vehicleLocation", process).first)
        #expect(van["latitude"] == 48.1 && van["heading"] == 45 && van["speed"] == 7.5 && van["accuracy"] == 5, "\(van)")
        #expect((Self.values("route", process).first?["points"]?.intValue ?? 0) >= 2)
        #expect(Self.values("estimatedArrivalTime", process).first?["secondsLeft"]?.intValue ?? 0 > 0)
        #expect(Self.values("plannedLocation", process) == [["latitude": 48.12, "longitude": 11.54]])

        // The van drives on: its position follows.
        try shipment.move(to: (48.105, 11.510))
        #expect(process.waitForLines { _ in Self.values("vehicleLocation", process).contains { $0["latitude"] == 48.105 } }, "\(process.error)")
        // The other customer's parcel is delivered: ours is next.
        try shipment.setStops([(SharedStoreShipment.ourStop, "mine")])
        #expect(process.waitForLines { _ in Self.values("remainingStopCount", process).last == ["remainingStopCount": 1, "stopsBefore": 0] },
                "\(process.error)")
        // Ours is delivered: following ends with exit 0.
        try shipment.finish(.succeeded)
        #expect(process.waitForExit() == 0, "\(process.error)")
        #expect(Self.values("taskState", process).last == "CLOSED")
        #expect(Self.values("taskOutcome", process).last?["outcome"] == "SUCCEEDED")
        #expect(Self.values("taskOutcome", process).last?["time"]?.stringValue != nil)
        #expect(process.error.isEmpty, "JSON lines say nothing else: \(process.error)")
        // Followed through the tracking ID's :watch stream, not by polling.
        #expect(try shipment.server.calls("WatchTaskTrackingInfo") >= 1)
        #expect(try shipment.server.calls("GetTaskTrackingInfo") == 0, "the follower polled instead of watching")
    }

    @Test func withPollItPollsGetTaskTrackingInfoAndDoesNotWatch() throws {
        let shipment = try SharedStoreShipment()
        let process = try FollowProcess(shipment.arguments + ["--json", "--poll", "--interval", "1s", "--events", "taskState,vehicleLocation"])
        #expect(process.waitForLines { $0.count >= 2 }, "\(process.error)")
        try shipment.move(to: (48.105, 11.510))
        #expect(process.waitForLines { _ in Self.values("vehicleLocation", process).contains { $0["latitude"] == 48.105 } }, "\(process.error)")
        process.signal(SIGINT)
        #expect(process.waitForExit() == 130)
        #expect(try shipment.server.calls("GetTaskTrackingInfo") >= 2)
        #expect(try shipment.server.calls("WatchTaskTrackingInfo") == 0)
    }

    @Test func aFailedDeliveryExitsWith6AndSaysSoInWords() throws {
        let shipment = try SharedStoreShipment()
        let process = try FollowProcess(shipment.arguments + ["--interval", "1s", "--events", "taskState,taskOutcome,remainingStopCount"])
        #expect(process.waitForLines { $0.count >= 2 }, "\(process.error)")
        try shipment.finish(.failed)
        #expect(process.waitForExit() == 6, "\(process.error)")
        let lines = process.lines.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(lines.prefix(2) == ["taskState OPEN", "remainingStopCount 2 (1 stop before yours)"], "\(lines)")
        #expect(Array(lines.suffix(3).prefix(2)) == ["taskState CLOSED", lines.suffix(2).first ?? ""], "\(lines)")
        #expect(lines.suffix(2).first?.hasPrefix("taskOutcome FAILED at ") == true, "\(lines)")
        #expect(lines.last == "remainingStopCount unknown", "a closed task has no stops left to count: \(lines)")
        #expect(process.error == "Shipment \(shipment.trackingName) closed: FAILED.\n")
    }

    @Test func theViewConfigHidesTheVanUntilOursIsTheNextStop() throws {
        let view = TaskTrackingViewConfig(vehicleLocationVisibility: TaskTrackingViewConfig.VisibilityOption(visibilityOption: .remainingStopCountThreshold(1)))
        let shipment = try SharedStoreShipment(view: view)
        let process = try FollowProcess(shipment.arguments + ["--json", "--interval", "1s", "--deadline", "60s"])
        #expect(process.waitForLines { _ in !Self.values("remainingStopCount", process).isEmpty }, "\(process.error)")
        #expect(Self.values("vehicleLocation", process).isEmpty, "two stops away: the van is not shown")
        try shipment.setStops([(SharedStoreShipment.ourStop, "mine")])
        #expect(process.waitForLines { _ in !Self.values("vehicleLocation", process).isEmpty }, "\(process.error)")
        #expect(Self.values("vehicleLocation", process).first?["latitude"] == 48.1)
        process.signal(SIGINT)
        #expect(process.waitForExit() == 130)
    }

    @Test func aQuietVanIsFlaggedStale() throws {
        let shipment = try SharedStoreShipment()
        let process = try FollowProcess(shipment.arguments + ["--json", "--interval", "1s", "--stale-after", "2"])
        #expect(process.waitForLines(timeout: 30) { _ in Self.values("vehicleStale", process).contains { $0["stale"] == true } }, "\(process.error)")
        try shipment.move(to: (48.101, 11.501))
        #expect(process.waitForLines(timeout: 30) { _ in Self.values("vehicleStale", process).last?["stale"] == false }, "\(process.error)")
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 143)
    }

    @Test func anUnknownTrackingIDEndsWith15UnderFailFast() throws {
        let shipment = try SharedStoreShipment()
        let result = try FollowProcess.run(["--transport", shipment.server.url, "--provider", SharedStoreShipment.provider,
                                            "--tracking-id", "NOPE", "--fail-fast"])
        #expect(result.status == 15, "\(result)")
        #expect(result.error.contains("TRACKING_ID_NOT_FOUND"), "\(result.error)")
    }

    @Test(arguments: [
        (["--tracking-id", "X", "-p", "p", "--until", "COMPLETE"], "--until takes a trip status"),
        (["--tracking-id", "X", "-p", "p", "providers/p/trips/t"], "not both"),
        (["--tracking-id", "X", "-p", "p", "--events", "tripStatus"], "not a shipment's event"),
        (["--tracking-id", "X"], "give --provider"),
        (["--tracking-id", "providers/q/taskTrackingInfo/X", "--provider", "p"], "another provider"),
    ])
    func usageErrorsExitWith2(arguments: [String], message: String) throws {
        let result = try FollowProcess.run(arguments + ["--store", "memory"])
        #expect(result.status == 2, "\(result)")
        #expect(result.error.contains(message), "\(result.error)")
    }
}
