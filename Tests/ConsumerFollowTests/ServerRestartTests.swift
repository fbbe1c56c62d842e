import FleetModel
import Foundation
import Testing

/// The server goes away mid-trip and comes back: the follower reports recovering errors, then
/// carries on with no status event lost or repeated.
@Suite struct ServerRestartTests {
    @Test(arguments: [false, true])
    func theFollowerRecoversWhenTheServerRestartsMidTrip(abruptly: Bool) throws {
        let trip = try SharedStoreTrip(.http)
        let process = try FollowProcess([trip.tripName, "--json", "--interval", "1s"] + trip.wiringArguments)
        // Down while the car drives to the pickup (steps 3 and 4 are moves): the car moves on in the
        // store meanwhile. A status that began and ended during an outage could not be seen by any
        // follower that reads snapshots (the Consumer SDK neither), so the outage spans moves only.
        let steps = trip.steps
        FollowBinaryTests.drive(trip, process, steps: 3)
        try trip.restartServer(abruptly: abruptly) {
            #expect(process.waitForLines { lines in lines.contains { $0.contains("\"recovering\":true") } },
                    "no recovering error while the server was down: \(process.error)")
            for step in steps[3..<5] { try step.run() }
        }
        for step in steps[5...] {
            let before = FollowBinaryTests.events(process).filter { $0["event"] == "trip" }.count
            try step.run()
            #expect(process.waitForLines { _ in FollowBinaryTests.events(process).filter { $0["event"] == "trip" }.count > before },
                    "no update after \(step.name): \(process.error)")
        }
        #expect(process.waitForExit() == 0, "\(process.error)")
        let events = FollowBinaryTests.events(process)
        let statuses = events.filter { $0["event"] == "tripStatus" }.compactMap { $0["value"]?.stringValue }
        #expect(statuses == ["NEW", "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"])
        let errors = events.filter { $0["event"] == "error" }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0["value"]?["recovering"] == .bool(true) })
        // Nothing cancels on the follower's side: a stream the server ended is ABORTED, a server away
        // UNAVAILABLE.
        #expect(errors.allSatisfy { ["UNAVAILABLE", "ABORTED", "DEADLINE_EXCEEDED"].contains($0["value"]?["code"]?.stringValue ?? "") },
                "\(errors)")
        if !abruptly {
            // A server stopping gracefully ends the watch without an error event: the server stopped sending.
            #expect(errors.first?["value"]?["code"] == "ABORTED" && errors.first?["value"]?["causeId"] == "STREAM_ABORTED", "\(errors)")
        }
    }
}
