import FleetConcurrency
@testable import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import Synchronization
import Testing

@Suite struct WatchTests {
    /// A trip on a vehicle, and the fixture.
    func assignedTrip() throws -> Fixture {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1", vehicle: "v1")
        return f
    }

    @Test func everyWatcherGetsTheFirstStateThenEachChangeOnce() throws {
        let f = try assignedTrip()
        let watchers = (0..<50).map { _ in Deliveries() }
        let observations = try watchers.map { try $0.observe(f.engine, f.tripName("t1")) }
        for w in watchers { #expect(w.wait { $0.snapshots.count == 1 }) }
        try f.move("v1", to: 52.521, 13.401)
        for w in watchers { #expect(w.wait { $0.snapshots.count == 2 }) }
        try f.setStatus("t1", .enrouteToPickup)
        for w in watchers { #expect(w.wait { $0.snapshots.count == 3 }) }
        for w in watchers {
            #expect(w.snapshots.map(\.trip.tripStatus) == [.new, .new, .enrouteToPickup])
        }
        // One feed for the request: every watcher got the very same snapshot (one read, one encoding).
        #expect(f.engine.feeds.count == 1)
        for w in watchers.dropFirst() {
            #expect(w.snapshots[2] === watchers[0].snapshots[2])
        }
        observations.forEach { $0.cancel() }
        #expect(f.engine.feeds.count == 0)
    }

    @Test func aChangeToAnotherTripsVehicleIsNotDelivered() throws {
        let f = try assignedTrip()
        try f.createVehicle("v2")
        try f.createTrip("t2", vehicle: "v2")
        let one = Deliveries(), two = Deliveries()
        let o1 = try one.observe(f.engine, f.tripName("t1"))
        let o2 = try two.observe(f.engine, f.tripName("t2"))
        #expect(one.wait { $0.snapshots.count == 1 })
        #expect(two.wait { $0.snapshots.count == 1 })
        try f.move("v2", to: 52.6, 13.5)
        #expect(two.wait { $0.snapshots.count == 2 })
        // t1's watcher heard nothing: a later change to t1 is its second delivery, not its third.
        try f.move("v1", to: 52.6, 13.5)
        #expect(one.wait { $0.snapshots.count == 2 })
        #expect(one.snapshots.count == 2)
        #expect(one.snapshots[1].trip.name == f.tripName("t1"))
        o1.cancel()
        o2.cancel()
    }

    @Test func differentViewsAreDifferentFeeds() throws {
        let f = try assignedTrip()
        let plain = Deliveries(), sharing = Deliveries()
        let a = try plain.observe(f.engine, f.tripName("t1"))
        let b = try sharing.observe(f.engine, f.tripName("t1"), view: .journeySharingV1s)
        #expect(plain.wait { $0.snapshots.count == 1 })
        #expect(sharing.wait { $0.snapshots.count == 1 })
        #expect(f.engine.feeds.count == 2)
        #expect(sharing.snapshots[0].trip.view == .journeySharingV1s)
        a.cancel()
        #expect(f.engine.feeds.count == 1)
        b.cancel()
        #expect(f.engine.feeds.count == 0)
    }

    @Test func aCancelledWatcherGetsNothingMore() throws {
        let f = try assignedTrip()
        let stays = Deliveries(), leaves = Deliveries()
        let kept = try stays.observe(f.engine, f.tripName("t1"))
        let gone = try leaves.observe(f.engine, f.tripName("t1"))
        #expect(leaves.wait { $0.snapshots.count == 1 })
        gone.cancel()
        try f.move("v1", to: 52.53, 13.41)
        #expect(stays.wait { $0.snapshots.count >= 2 })
        #expect(leaves.snapshots.count == 1)
        kept.cancel()
    }

    @Test func deletingTheTripEndsTheWatchWithNotFound() throws {
        let f = Fixture()
        try f.createTrip("t1")
        let w = Deliveries()
        _ = try w.observe(f.engine, f.tripName("t1"))
        #expect(w.wait { $0.snapshots.count == 1 })
        try f.engine.deleteTrip(DeleteTripRequest(name: f.tripName("t1")))
        #expect(w.wait { $0.error != nil })
        #expect(w.error?.code == .notFound)
        #expect(f.engine.feeds.count == 0)
    }

    @Test func anUnknownTripOrABadNameIsRefusedAtOnce() {
        let f = Fixture()
        expectFleetError(.notFound) { _ = try Deliveries().observe(f.engine, f.tripName("nope")) }
        expectFleetError(.invalidArgument, field: "name") { _ = try Deliveries().observe(f.engine, "trips/x") }
        #expect(f.engine.feeds.count == 0)
    }

    @Test func aBlockingWatchEndsWhenCancelledAndClosesItsFeed() throws {
        let f = try assignedTrip()
        let cancellation = Cancellation()
        let seen = Mutex<[TripStatus?]>([])
        let done = DispatchSemaphore(value: 0)
        let watcher = Thread {
            try? f.engine.watchTrip(GetTripRequest(name: f.tripName("t1")), cancellation: cancellation) { trip in
                seen.withLock { $0.append(trip.tripStatus) }
                if trip.tripStatus == .arrivedAtPickup { cancellation.cancel() }
            }
            done.signal()
        }
        watcher.start()
        try f.setStatus("t1", .enrouteToPickup)
        try f.setStatus("t1", .arrivedAtPickup)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0.last } == .arrivedAtPickup)
        #expect(f.engine.feeds.count == 0)
    }
}
