@testable import FleetEngine
import FleetInterface
import FleetModel
import Foundation
import Synchronization
import Testing

/// The vehicles feed behind `GET /v1/providers/{p}/vehicles:watch` (the operator's map).
@Suite struct VehicleWatchTests {
    /// What one watcher was given, batch by batch.
    final class Batches: Sendable {
        private let received = Mutex<[(changes: [VehicleChange], initial: Bool)]>([])
        private let condition = NSCondition()

        var all: [(changes: [VehicleChange], initial: Bool)] { received.withLock { $0 } }

        func observe(_ engine: Engine, provider: String) throws -> VehicleObservation {
            try engine.observeVehicles(provider: provider) { changes, initial in
                self.condition.lock()
                self.received.withLock { $0.append((changes, initial)) }
                self.condition.broadcast()
                self.condition.unlock()
                return true
            }
        }

        /// Waits (up to 10 s, a bound for a stuck test) until `done` holds.
        @discardableResult
        func wait(until done: (Batches) -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: 10)
            condition.lock()
            defer { condition.unlock() }
            while !done(self) {
                if !condition.wait(until: deadline) { return done(self) }
            }
            return true
        }
    }

    @Test func theWholeFleetFirstThenEachChangeAndDeletion() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createVehicle("v2")
        let watcher = Batches()
        let observation = try watcher.observe(f.engine, provider: f.provider)
        defer { observation.cancel() }
        #expect(watcher.wait { $0.all.count == 1 })
        let first = try #require(watcher.all.first)
        #expect(first.initial)
        #expect(first.changes.map(\.name) == [f.vehicleName("v1"), f.vehicleName("v2")])

        try f.move("v2", to: 52.521, 13.401)
        #expect(watcher.wait { $0.all.count == 2 })
        let moved = try #require(watcher.all.last)
        #expect(!moved.initial)
        #expect(moved.changes.map(\.name) == [f.vehicleName("v2")], "only the vehicle that changed")
        #expect(moved.changes.first?.vehicle?.lastLocation?.location?.latitude == 52.521)
        #expect(moved.changes.first?.json?.contains("52.521") == true)

        _ = try f.engine.deleteVehicle(DeleteVehicleRequest(name: f.vehicleName("v1")))
        #expect(watcher.wait { $0.all.count == 3 })
        let deleted = try #require(watcher.all.last?.changes.first)
        #expect(deleted.name == f.vehicleName("v1") && deleted.vehicle == nil && deleted.json == nil)

        // Another provider's vehicles are not this feed's.
        _ = try f.engine.createVehicle(CreateVehicleRequest(parent: "providers/other", vehicleId: "x1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        try f.move("v2", to: 52.522, 13.402)
        #expect(watcher.wait { $0.all.count == 4 })
        #expect(watcher.all.last?.changes.map(\.name) == [f.vehicleName("v2")])
    }

    @Test func aLateWatcherGetsTheFleetAndCancellingClosesTheFeed() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        let early = Batches(), late = Batches()
        let a = try early.observe(f.engine, provider: f.provider)
        #expect(early.wait { $0.all.count == 1 })
        try f.move("v1", to: 52.523, 13.403)
        #expect(early.wait { $0.all.count == 2 })
        let b = try late.observe(f.engine, provider: f.provider)
        #expect(late.wait { $0.all.count == 1 })
        #expect(late.all.first?.initial == true && late.all.first?.changes.first?.vehicle?.lastLocation?.location?.latitude == 52.523)
        #expect(f.engine.vehicleFeeds.count == 1, "one feed for both")
        a.cancel()
        b.cancel()
        #expect(f.engine.vehicleFeeds.count == 0)
    }
}
