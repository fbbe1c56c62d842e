import FleetConcurrency
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import JournalTransport
import Synchronization
import Testing

/// Two transports on one journal in this test process: each has its own engine, as two processes would.
@Suite("Journal shared by two transports")
struct SharedJournalTests {
    @Test func createOnOneIsVisibleOnTheOther() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open(), b = try fixture.open()
        let created = try a.createVehicle(fixture.createVehicleRequest("v1"))
        let seen = try b.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1")))
        #expect(seen == created)
        _ = try b.updateVehicle(fixture.moveRequest("v1", to: 52.6, 13.5))
        let moved = try a.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1")))
        #expect(moved.lastLocation?.location == JournalFixture.point(52.6, 13.5))
        #expect(a.statistics.lastSequence == 2)
        #expect(b.statistics.recordsApplied == 2)
        #expect(b.statistics.recordsAppended == 1)
    }

    @Test func aDuplicateCreateFailsTheSameWayEverywhereAndIsNotJournaled() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open(), b = try fixture.open()
        _ = try a.createVehicle(fixture.createVehicleRequest("v1"))
        let onB = expectFleetError(.alreadyExists) { _ = try b.createVehicle(fixture.createVehicleRequest("v1")) }
        let onA = expectFleetError(.alreadyExists) { _ = try a.createVehicle(fixture.createVehicleRequest("v1")) }
        #expect(onA == onB)
        _ = try a.createTrip(fixture.createTripRequest("t1"))
        let tripOnB = expectFleetError(.alreadyExists) { _ = try b.createTrip(fixture.createTripRequest("t1")) }
        #expect(tripOnB?.field == "tripId")
        // Only the two successful calls are in the journal.
        let records = try JournalReader(path: fixture.path).records()
        #expect(records.map(\.call.method) == [.createVehicle, .createTrip])
        #expect(records.map(\.sequence) == [1, 2])
        // A third "process" opening later sees the same.
        let c = try fixture.open()
        expectFleetError(.alreadyExists) { _ = try c.createVehicle(fixture.createVehicleRequest("v1")) }
    }

    @Test func invalidCallsFailAsTheEngineSaysAndLeaveNoRecord() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open()
        expectFleetError(.notFound) { _ = try a.updateVehicle(fixture.moveRequest("nobody", to: 1, 2)) }
        expectFleetError(.invalidArgument) {
            _ = try a.updateVehicle(UpdateVehicleRequest(name: fixture.vehicleName("v1"), vehicle: Vehicle(), updateMask: FieldMask([])))
        }
        #expect(try fixture.bytes().isEmpty)
        #expect(a.statistics.recordsAppended == 0)
    }

    @Test func concurrentWritersLoseAndDuplicateNothingAndEndInTheSameState() throws {
        let fixture = try JournalFixture()
        let transports = [try fixture.open(), try fixture.open()]
        _ = try transports[0].createVehicle(fixture.createVehicleRequest("shared"))
        for index in transports.indices {
            _ = try transports[index].createVehicle(fixture.createVehicleRequest("writer-\(index)"))
        }
        let rounds = 40
        let winners = Mutex<[String: [Int]]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: transports.count) { index in
            let api = transports[index]
            do {
                for round in 0..<rounds {
                    _ = try api.updateVehicle(fixture.moveRequest("writer-\(index)", to: 10 + Double(round) / 1000, 20))
                    _ = try api.updateVehicleAttributes(fixture.attributeRequest("shared", key: "writer-\(index)", value: "\(round)"))
                    do {
                        _ = try api.createTrip(fixture.createTripRequest("race-\(round)"))
                        winners.withLock { $0["race-\(round)", default: []].append(index) }
                    } catch let error as FleetError where error.code == .alreadyExists {}
                }
            } catch {
                failures.withLock { $0.append("writer \(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        // Every race had exactly one winner.
        let won = winners.withLock { $0 }
        #expect(won.count == rounds)
        #expect(won.values.allSatisfy { $0.count == 1 })

        // No record lost or duplicated: 3 creates, then per writer and round an update and an attribute
        // change, and one trip per round.
        let records = try JournalReader(path: fixture.path).records()
        #expect(records.count == 3 + transports.count * rounds * 2 + rounds)
        #expect(records.map(\.sequence) == Array(1...records.count))
        let tripIDs = records.compactMap { record -> String? in
            if case .createTrip(let request) = record.call { return request.tripId }
            return nil
        }
        #expect(tripIDs.sorted() == (0..<rounds).map { "race-\($0)" }.sorted())
        for index in transports.indices {
            let updates = records.filter {
                if case .updateVehicle(let request) = $0.call { return request.name == fixture.vehicleName("writer-\(index)") }
                return false
            }
            #expect(updates.count == rounds)
        }
        // Record times never go backwards.
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.at <= $1.at })

        // Both engines hold the same state.
        let lists = try transports.map { try $0.listVehicles(fixture.listVehicles()) }
        #expect(lists[0] == lists[1])
        #expect(lists[0].vehicles.count == 3)
        let shared = try #require(lists[0].vehicles.first { $0.name == fixture.vehicleName("shared") })
        #expect(Set(shared.attributes.compactMap(\.key)) == ["writer-0", "writer-1"])
        #expect(shared.attributes.allSatisfy { $0.stringValue == "\(rounds - 1)" })
        for round in 0..<rounds {
            let trips = try transports.map { try $0.getTrip(fixture.getTrip("race-\(round)")) }
            #expect(trips[0] == trips[1])
        }
    }

    @Test func aWatchOnOneTransportSeesAnotherTransportsUpdate() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open(), b = try fixture.open()
        _ = try a.createVehicle(fixture.createVehicleRequest("v1"))
        _ = try a.createTrip(fixture.createTripRequest("t1", vehicle: "v1"))
        let watch = TripWatch(b, fixture.getTrip("t1"))
        // Wait for the watch's first delivery, then change the trip through A only: B makes no call.
        #expect(try waitUntil { watch.statuses == [.new] })
        _ = try a.updateTrip(fixture.statusRequest("t1", .enrouteToPickup))
        #expect(try waitUntil { watch.statuses.last == .enrouteToPickup }, "B's watch saw \(watch.statuses)")
        #expect(watch.stop() == nil)
    }

    @Test func aWatchStartedAfterAnotherEndedStillHearsOtherTransports() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open(), b = try fixture.open()
        _ = try a.createVehicle(fixture.createVehicleRequest("v1"))
        _ = try a.createTrip(fixture.createTripRequest("t1", vehicle: "v1"))
        for (round, status) in [TripStatus.enrouteToPickup, .arrivedAtPickup].enumerated() {
            let watch = TripWatch(b, fixture.getTrip("t1"))
            #expect(try waitUntil { watch.statuses.count == 1 }, "round \(round): the watch did not start")
            _ = try a.updateTrip(fixture.statusRequest("t1", status))
            #expect(try waitUntil { watch.statuses.last == status }, "round \(round): saw \(watch.statuses)")
            #expect(watch.stop() == nil)
        }
    }

    @Test func aCorruptRecordEndsAWatchWithDataLoss() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open()
        _ = try a.createTrip(fixture.createTripRequest("t1"))
        let watch = TripWatch(a, fixture.getTrip("t1"))
        #expect(try waitUntil { watch.statuses.count == 1 })
        try fixture.appendRaw("{not a record}\n")
        #expect(watch.waitUntilEnded(), "the watch did not end")
        let error = watch.stop()
        #expect(error?.code == .dataLoss)
        #expect(error?.message.contains("line 2") == true)
    }

    @Test func closingEndsWatchesAndLaterCallsFail() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open()
        _ = try a.createTrip(fixture.createTripRequest("t1"))
        let watch = TripWatch(a, fixture.getTrip("t1"))
        #expect(try waitUntil { watch.statuses.count == 1 })
        a.close()
        #expect(watch.waitUntilEnded(), "closing did not end the watch")
        #expect(watch.stop()?.cause == ErrorCause.journalTransportClosed.id)
        expectFleetError(.failedPrecondition, containing: "closed") { _ = try a.getTrip(fixture.getTrip("t1")) }
        expectFleetError(.failedPrecondition, containing: "closed") { _ = try a.createTrip(fixture.createTripRequest("t2")) }
    }
}

/// Polls `condition` until it holds or `seconds` pass (waiting for another thread, never for time itself).
func waitUntil(seconds: Double = 5, _ condition: () throws -> Bool) throws -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(2_000)
    }
    return try condition()
}

/// A watch running on its own thread, recording the statuses it is given.
final class TripWatch: Sendable {
    private let seen = Mutex<[TripStatus?]>([])
    private let error = Mutex<FleetError?>(nil)
    private let cancellation = Cancellation()
    /// Signalled when the watch returned or threw.
    private let finished = DispatchSemaphore(value: 0)

    init(_ api: any TripWatching, _ request: GetTripRequest) {
        Thread.detachNewThread { [self] in
            do {
                try api.watchTrip(request, cancellation: cancellation) { trip in
                    seen.withLock { $0.append(trip.tripStatus) }
                }
            } catch let failure as FleetError {
                error.withLock { $0 = failure }
            } catch {
                self.error.withLock { $0 = FleetError.internal("\(error)") }
            }
            finished.signal()
        }
    }

    /// The statuses delivered so far.
    var statuses: [TripStatus?] { seen.withLock { $0 } }

    /// Waits up to `seconds` for the watch to end by itself or by `stop()`; whether it ended.
    func waitUntilEnded(seconds: Double = 5) -> Bool {
        guard finished.wait(timeout: .now() + seconds) == .success else { return false }
        finished.signal()
        return true
    }

    /// Cancels the watch, waits for it to end, and returns what it threw.
    func stop() -> FleetError? {
        cancellation.cancel()
        guard waitUntilEnded() else { return FleetError.internal("the watch did not end") }
        return error.withLock { $0 }
    }
}
