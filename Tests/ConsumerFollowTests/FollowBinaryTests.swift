import FleetModel
import Foundation
import Testing

/// `consumer-follow` run as a program, following a trip that the test drives through a shared SQLite
/// store file: its JSON and plain output, its stops, its errors and its exit codes.
@Suite(.serialized) struct FollowBinaryTests {
    /// The event names of each update: the first snapshot, then one update per step.
    static let expectedBatches: [[String]] = {
        let move = ["trip", "activeRouteRemainingDistance", "vehicleLocation", "pickupETA", "dropoffETA", "remainingWaypoints"]
        let moveAfterPickup = ["trip", "activeRouteRemainingDistance", "vehicleLocation", "dropoffETA", "remainingWaypoints"]
        return [
            ["trip", "tripStatus", "pickupLocation", "dropoffLocation"],
            ["trip", "activeRouteRemainingDistance", "vehicleLocation", "pickupETA", "dropoffETA", "remainingWaypoints"],
            ["trip", "tripStatus"],
            ["trip", "activeRouteRemainingDistance", "activeRoute", "pickupETA", "dropoffETA", "remainingWaypoints"],
            move, move, move, move,
            ["trip", "tripStatus"],
            ["trip", "tripStatus", "activeRouteRemainingDistance", "remainingWaypoints"],
            ["trip", "activeRouteRemainingDistance", "activeRoute", "dropoffETA", "remainingWaypoints"],
            moveAfterPickup, moveAfterPickup, moveAfterPickup, moveAfterPickup,
            ["trip", "tripStatus", "activeRouteRemainingDistance", "activeRoute", "vehicleLocation", "remainingWaypoints"],
        ]
    }()

    /// The JSON events printed so far.
    static func events(_ process: FollowProcess) -> [JSON] {
        process.lines.compactMap { try? JSON.parse($0) }
    }

    /// Runs the steps, waiting after each for the follower's next update (its `trip` event).
    static func drive(_ trip: SharedStoreTrip, _ process: FollowProcess, steps: Int? = nil) {
        #expect(process.waitForLines { $0.contains { $0.contains(#""event":"trip""#) } }, "no first update: \(process.error)")
        for step in trip.steps.prefix(steps ?? trip.steps.count) {
            let before = events(process).filter { $0["event"] == "trip" }.count
            do { try step.run() } catch {
                Issue.record("step \(step.name) failed: \(error)")
                return
            }
            #expect(process.waitForLines { _ in events(process).filter { $0["event"] == "trip" }.count > before },
                    "no update after \(step.name): \(process.error)")
        }
    }

    @Test(arguments: SharedStoreTrip.Shared.allCases)
    func followsTheTripAsJSONLinesUntilItIsComplete(shared: SharedStoreTrip.Shared) throws {
        let trip = try SharedStoreTrip(shared)
        let process = try FollowProcess([trip.tripName, "--json"] + trip.wiringArguments)
        Self.drive(trip, process)
        let status = process.waitForExit()
        #expect(status == 0, "\(process.error)")

        let events = Self.events(process)
        #expect(events.count == process.lines.count, "every line is one JSON object")
        #expect(events.allSatisfy { $0["trip"] == .string(trip.tripName) && $0["time"]?.stringValue != nil })
        var batches: [[String]] = []
        for event in events {
            let name = event["event"]?.stringValue ?? "?"
            if name == "trip" { batches.append([]) }
            if batches.isEmpty { batches.append([]) }
            batches[batches.count - 1].append(name)
        }
        #expect(batches == Self.expectedBatches)

        let statuses = events.filter { $0["event"] == "tripStatus" }.compactMap { $0["value"]?.stringValue }
        #expect(statuses == ["NEW", "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"])

        // Each `trip` event carries the trip as it now is, and lists the events that follow it.
        var lastStatus: String?
        for (index, event) in events.enumerated() where event["event"] == "trip" {
            let following = events[(index + 1)...].prefix { $0["event"] != "trip" }
            #expect(event["value"]?["changed"] == .array(following.map { $0["event"] ?? .null }))
            lastStatus = following.first { $0["event"] == "tripStatus" }?["value"]?.stringValue ?? lastStatus
            #expect(event["value"]?["trip"]?["name"] == .string(trip.tripName), "\(event)")
            #expect(event["value"]?["trip"]?["tripStatus"]?.stringValue == lastStatus, "\(event)")
        }

        // The car's position comes with its heading, speed and accuracy.
        let fixes = events.filter { $0["event"] == "vehicleLocation" }.compactMap { $0["value"] }
        #expect(fixes.count == 10)
        #expect(fixes.dropLast().allSatisfy { $0["heading"] == 90 && $0["speed"] == 8.3 && $0["accuracy"] == 4 && $0["latitude"] == 52.5 },
                "\(fixes)")
        #expect(fixes.last == .null, "the car is gone from the completed trip")

        // The distance reaches 0 at the pickup and again at the dropoff.
        let distances = events.filter { $0["event"] == "activeRouteRemainingDistance" }.map { $0["value"]?.intValue }
        #expect(distances[5] == 0 && distances[11] == 0 && distances.last == .some(nil), "\(distances)")

        // Each ETA, measured from the driving engine's clock at its step, decreases to 0.
        for name in ["pickupETA", "dropoffETA"] {
            var left: [Double] = []
            for (index, batch) in batches.enumerated() where index > 0 && batch.contains(name) {
                let eventIndex = batches[..<index].map(\.count).reduce(0, +) + batch.firstIndex(of: name)!
                let eta = try Timestamp(rfc3339: events[eventIndex]["value"]?["eta"]?.stringValue ?? "")
                left.append(eta.timeIntervalSince(trip.clockAtStep[index - 1]))
            }
            #expect(zip(left, left.dropFirst()).allSatisfy { $0 > $1 } && left.last == 0, "\(name): \(left)")
        }
    }

    @Test(arguments: SharedStoreTrip.Shared.allCases)
    func pollsWithTheIntervalAndStopsAtUntil(shared: SharedStoreTrip.Shared) throws {
        let trip = try SharedStoreTrip(shared)
        let process = try FollowProcess(["--provider", SharedStoreTrip.provider, trip.tripID, "--json", "--poll", "--interval", "1s",
                                         "--until", "ARRIVED_AT_PICKUP"] + trip.wiringArguments)
        Self.drive(trip, process, steps: 8)
        #expect(process.waitForExit() == 0, "\(process.error)")
        let names = Self.events(process).compactMap { $0["event"]?.stringValue }
        #expect(names == Array(Self.expectedBatches.prefix(9).joined()))
    }

    @Test func withoutATerminalEachEventIsOneReadableLine() throws {
        let trip = try SharedStoreTrip()
        let process = try FollowProcess([trip.tripName, "--until", "ENROUTE_TO_PICKUP", "--events", "trip,tripStatus,vehicleLocation",
                                         "--store", trip.storeArgument])
        #expect(process.waitForLines { $0.count == 2 })
        try trip.assign()
        #expect(process.waitForLines { $0.count == 4 })
        try trip.setStatus(.enrouteToPickup)
        #expect(process.waitForExit() == 0, "\(process.error)")
        let lines = process.lines.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        let car = "52.50000, 13.38000, heading 90°, 8.3 m/s, accuracy 4 m"
        // `trip` says in words what changed: here the status, then the car, its distance and ETAs.
        #expect(lines.count == 6, "\(lines.joined(separator: "\n"))")
        #expect(Array(lines.prefix(2)) == ["trip changed tripStatus: NEW | pickupLocation: 52.50000, 13.40000 | dropoffLocation: 52.50000, 13.43000",
                                           "tripStatus NEW"])
        #expect(lines[2].hasPrefix("trip changed activeRouteRemainingDistance: 1760 m | vehicleLocation: \(car) | pickupETA: "), "\(lines[2])")
        #expect(lines[2].contains(" | remainingWaypoints: pickup at 52.50000, 13.40000, 1760 m, ETA "), "\(lines[2])")
        #expect(Array(lines.suffix(3)) == ["vehicleLocation \(car)", "trip changed tripStatus: ENROUTE_TO_PICKUP", "tripStatus ENROUTE_TO_PICKUP"])
        #expect(process.lines.allSatisfy { (try? Timestamp(rfc3339: String($0.prefix { $0 != " " }))) != nil })
        #expect(process.error == "Trip \(trip.tripName) reached ENROUTE_TO_PICKUP; stopped following.\n")
    }
}
