@testable import FleetEngine
import FleetModel
import FleetTestSupport
import Foundation
import PostgresStore
import Synchronization
import Testing

/// Two engines on one PostgreSQL database, as two server nodes: concurrent updates from each both
/// land, and a copy one engine holds never overwrites what the other wrote.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresSharedStoreTests {
    func engines() throws -> (Fixture, Engine) {
        let url = try PostgresCluster.shared!.database(named: "engines")
        let a = Fixture(store: try PostgresStore(url: url))
        let b = Engine(store: try PostgresStore(url: url), clock: a.clock)
        return (a, b)
    }

    @Test func updatesOfOneVehicleFromTwoEnginesAtOnceAllLand() throws {
        let (a, b) = try engines()
        try a.createVehicle("v1")
        let each = 10
        let failures = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        for n in 0..<each {
            for (engine, side) in [(a.engine, "a"), (b, "b")] {
                Thread {
                    do {
                        _ = try engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                            name: a.vehicleName("v1"), attributes: [VehicleAttribute(key: "\(side)\(n)", value: "x")]))
                    } catch {
                        failures.withLock { $0.append("\(side)\(n): \(error)") }
                    }
                    finished.signal()
                }.start()
            }
        }
        for _ in 0..<(2 * each) { #expect(finished.wait(timeout: .now() + 60) == .success) }
        #expect(failures.withLock { $0 } == [])
        let stored = try b.getVehicle(GetVehicleRequest(name: a.vehicleName("v1")))
        #expect(Set(stored.attributes.compactMap(\.key)) == Set((0..<each).flatMap { ["a\($0)", "b\($0)"] }))
    }

    @Test func aVehicleDeletedAndCreatedAgainOnTheOtherEngineIsNeverOverwrittenFromTheOldCopy() throws {
        let (a, b) = try engines()
        try a.createVehicle("v1")
        _ = try a.engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: a.vehicleName("v1"), attributes: [VehicleAttribute(key: "shift", value: "old")]))
        _ = try b.deleteVehicle(DeleteVehicleRequest(name: a.vehicleName("v1")))
        _ = try b.createVehicle(CreateVehicleRequest(parent: a.parent, vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 2, vehicleType: VehicleType(category: .taxi))))
        _ = try b.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: a.vehicleName("v1"), attributes: [VehicleAttribute(key: "shift", value: "new")]))
        try a.move("v1", to: 52.53, 13.43)
        let stored = try b.getVehicle(GetVehicleRequest(name: a.vehicleName("v1")))
        #expect(stored.attributes.first?.value == "new")
        #expect(stored.vehicleType?.category == .taxi)
        #expect(stored.lastLocation?.location?.latitude == 52.53)
    }
}
