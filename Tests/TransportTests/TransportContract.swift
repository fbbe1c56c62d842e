import FleetConcurrency
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import Synchronization
import Testing

/// The engine's API, as every transport must carry it: the same answers, the same errors (code,
/// field, cause), whatever is between the caller and the engine.
@Suite struct TransportContract {
    let provider = "contract"
    var parent: String { "providers/\(provider)" }

    func vehicle(_ state: VehicleState = .online, at point: LatLng = LatLng(latitude: 52.52, longitude: 13.40)) -> Vehicle {
        Vehicle(vehicleState: state, supportedTripTypes: [.exclusive], lastLocation: VehicleLocation(location: point),
                maximumCapacity: 4, vehicleType: VehicleType(category: .auto))
    }

    func trip(vehicle: String? = nil) -> Trip {
        Trip(vehicleId: vehicle, tripType: .exclusive,
             pickupPoint: TerminalLocation(point: LatLng(latitude: 52.53, longitude: 13.41)),
             dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.50, longitude: 13.45)))
    }

    func expectError(_ code: GRPCCode, field: String? = nil, cause: String? = nil, containing text: String? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected \(code.name)", sourceLocation: sourceLocation)
        } catch let error as FleetError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let field { #expect(error.field == field, "\(error)", sourceLocation: sourceLocation) }
            if let cause { #expect(error.cause == cause, "\(error)", sourceLocation: sourceLocation) }
            if let text { #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("expected FleetError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: TransportKind.all)
    func vehiclesRoundTrip(transport: TransportKind) throws {
        try transport.with { api in
            let created = try api.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v1", vehicle: vehicle()))
            #expect(created.name == "\(parent)/vehicles/v1")
            #expect(try api.getVehicle(GetVehicleRequest(name: created.name)) == created)
            expectError(.alreadyExists, cause: "ALREADY_EXISTS") {
                _ = try api.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v1", vehicle: vehicle()))
            }
            let updated = try api.updateVehicle(UpdateVehicleRequest(name: created.name, vehicle: Vehicle(vehicleState: .offline),
                                                                      updateMask: ["vehicleState"]))
            #expect(updated.vehicleState == .offline)
            expectError(.invalidArgument, field: "updateMask", cause: "EMPTY_UPDATE_MASK", containing: "update_mask cannot be empty") {
                _ = try api.updateVehicle(UpdateVehicleRequest(name: created.name, vehicle: Vehicle(vehicleState: .online)))
            }
            expectError(.invalidArgument, field: "vehicle.maximumCapacity") {
                _ = try api.updateVehicle(UpdateVehicleRequest(name: created.name, vehicle: Vehicle(maximumCapacity: 0),
                                                                updateMask: ["maximumCapacity"]))
            }
            let attributes = try api.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                name: created.name, attributes: [VehicleAttribute(key: "ev", vehicleAttributeValue: .boolValue(true))]))
            #expect(attributes.attributes.map(\.key) == ["ev"])
            expectError(.notFound) { _ = try api.getVehicle(GetVehicleRequest(name: "\(parent)/vehicles/ghost")) }
            try api.deleteVehicle(DeleteVehicleRequest(name: created.name))
            expectError(.notFound) { _ = try api.getVehicle(GetVehicleRequest(name: created.name)) }
        }
    }

    @Test(arguments: TransportKind.all)
    func badNamesAreInvalidArgumentEverywhere(transport: TransportKind) throws {
        try transport.with { api in
            for bad in ["providers/p/vehicles/a/b", "vehicles/v1", "providers/p/trips/t1", "providers//vehicles/v"] {
                expectError(.invalidArgument, field: "name") { _ = try api.getVehicle(GetVehicleRequest(name: bad)) }
            }
            expectError(.invalidArgument, field: "name") { _ = try api.getTrip(GetTripRequest(name: "providers/p/trips/a:b")) }
            expectError(.invalidArgument) {
                _ = try api.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "a#b", vehicle: vehicle()))
            }
        }
    }

    @Test(arguments: TransportKind.all)
    func tripLifecycleAndDerivedFields(transport: TransportKind) throws {
        try transport.with { api in
            _ = try api.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v1", vehicle: vehicle()))
            let created = try api.createTrip(CreateTripRequest(parent: parent, tripId: "t1", trip: trip(vehicle: "v1")))
            #expect(created.tripStatus == .new)
            let name = try #require(created.name)
            let read = try api.getTrip(GetTripRequest(name: name, view: .journeySharingV1s))
            #expect(read.remainingWaypoints.map(\.waypointType) == [.pickupWaypointType, .dropOffWaypointType])
            #expect(read.lastLocation?.location == LatLng(latitude: 52.52, longitude: 13.40))
            #expect((read.remainingWaypoints.first?.distanceMeters ?? 0) > 0)
            expectError(.failedPrecondition, cause: "ILLEGAL_TRIP_STATUS_TRANSITION") {
                _ = try api.updateTrip(UpdateTripRequest(name: name, trip: Trip(tripStatus: .complete), updateMask: ["tripStatus"]))
            }
            for status in [TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff, .complete] {
                let t = try api.updateTrip(UpdateTripRequest(name: name, trip: Trip(tripStatus: status), updateMask: ["tripStatus"]))
                #expect(t.tripStatus == status)
            }
            let v = try api.getVehicle(GetVehicleRequest(name: "\(parent)/vehicles/v1"))
            #expect(v.currentTrips.isEmpty && v.waypoints.isEmpty)
            let found = try api.searchTrips(SearchTripsRequest(parent: parent, vehicleId: "v1"))
            #expect(found.trips.compactMap(\.name) == [name])
            expectError(.notFound) { _ = try api.getTrip(GetTripRequest(name: "\(parent)/trips/never")) }
        }
    }

    @Test(arguments: TransportKind.all)
    func listAndSearchVehicles(transport: TransportKind) throws {
        try transport.with { api in
            for i in 0..<7 {
                _ = try api.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v\(i)",
                                                               vehicle: vehicle(at: LatLng(latitude: 52.52 + Double(i) * 0.001, longitude: 13.40))))
            }
            var names: [String] = []
            var token: String?
            repeat {
                let page = try api.listVehicles(ListVehiclesRequest(parent: parent, pageSize: 3, pageToken: token,
                                                                     vehicleTypeCategories: [.auto], vehicleState: .online))
                #expect(page.totalSize == 7)
                names += page.vehicles.compactMap(\.name)
                token = page.nextPageToken
            } while token != nil
            #expect(names == (0..<7).map { "\(parent)/vehicles/v\($0)" })
            let matches = try api.searchVehicles(SearchVehiclesRequest(
                parent: parent, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.40)),
                pickupRadiusMeters: 500, count: 3, minimumCapacity: 1, tripTypes: [.exclusive],
                vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointStraightDistance))
            #expect(matches.matches.compactMap { $0.vehicle?.name } == (0..<3).map { "\(parent)/vehicles/v\($0)" })
            expectError(.invalidArgument, field: "pickupRadiusMeters") {
                _ = try api.searchVehicles(SearchVehiclesRequest(
                    parent: parent, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.40)),
                    pickupRadiusMeters: 50, count: 3, minimumCapacity: 1, tripTypes: [.exclusive],
                    vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta))
            }
        }
    }

    @Test(arguments: TransportKind.all)
    func watchingATripSeesEachChange(transport: TransportKind) throws {
        try transport.with { api in
            _ = try api.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v1", vehicle: vehicle()))
            let name = try #require(try api.createTrip(CreateTripRequest(parent: parent, tripId: "t1", trip: trip(vehicle: "v1"))).name)
            let cancellation = Cancellation()
            let seen = Mutex<[TripStatus]>([])
            let done = DispatchSemaphore(value: 0)
            let watcher = Thread {
                try? api.watchTrip(GetTripRequest(name: name), cancellation: cancellation) { trip in
                    seen.withLock { s in
                        if let status = trip.tripStatus, s.last != status { s.append(status) }
                    }
                }
                done.signal()
            }
            watcher.start()
            func waitFor(_ status: TripStatus) {
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline && seen.withLock({ $0.last }) != status { usleep(5_000) }
            }
            waitFor(.new)
            for status in [TripStatus.enrouteToPickup, .arrivedAtPickup] {
                _ = try api.updateTrip(UpdateTripRequest(name: name, trip: Trip(tripStatus: status), updateMask: ["tripStatus"]))
                waitFor(status)
            }
            cancellation.cancel()
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(seen.withLock { $0 } == [.new, .enrouteToPickup, .arrivedAtPickup])
        }
    }
    /// Collects a blocking watch's deliveries on a thread of its own until cancelled.
    final class Watcher<Message: Sendable>: Sendable {
        let received = Mutex<[Message]>([])
        let failure = Mutex<(any Error)?>(nil)
        let cancellation = Cancellation()
        private let done = DispatchSemaphore(value: 0)

        init(_ watch: @escaping @Sendable (Cancellation, (Message) -> Void) throws -> Void) {
            let thread = Thread { [self] in
                do {
                    try watch(cancellation) { message in received.withLock { $0.append(message) } }
                } catch {
                    failure.withLock { $0 = error }
                }
                done.signal()
            }
            thread.start()
        }

        /// Waits (10 s at most, a bound for a stuck test) until the last delivery satisfies `condition`.
        @discardableResult
        func wait(until condition: (Message) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let last = received.withLock({ $0.last }), condition(last) { return true }
                usleep(5_000)
            }
            return false
        }

        /// Cancels the watch and waits for it to return.
        func stop() -> Bool {
            cancellation.cancel()
            return done.wait(timeout: .now() + 10) == .success
        }
    }

    @Test(arguments: TransportKind.all)
    func watchingATaskAndItsTrackingIDSeesEachChange(transport: TransportKind) throws {
        try transport.with { api in
            let depot = LatLng(latitude: 48.10, longitude: 11.50), stop = LatLng(latitude: 48.11, longitude: 11.52)
            let vehicle = "\(parent)/deliveryVehicles/dv1"
            _ = try api.createDeliveryVehicle(CreateDeliveryVehicleRequest(
                parent: parent, deliveryVehicleId: "dv1", deliveryVehicle: DeliveryVehicle(lastLocation: DeliveryVehicleLocation(location: depot))))
            _ = try api.createTask(CreateTaskRequest(parent: parent, taskId: "k1", task: DeliveryTask(
                type: .delivery, state: .open, trackingId: "PARCEL-1", plannedLocation: LocationInfo(point: stop),
                taskDuration: ProtoDuration(seconds: 60))))
            let taskName = "\(parent)/tasks/k1"
            let tasks = Watcher<DeliveryTask> { cancellation, deliver in
                try api.watchTask(GetTaskRequest(name: taskName), cancellation: cancellation, onUpdate: deliver)
            }
            let infos = Watcher<TaskTrackingInfo> { cancellation, deliver in
                try api.watchTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(parent)/taskTrackingInfo/PARCEL-1"),
                                              cancellation: cancellation, onUpdate: deliver)
            }
            #expect(tasks.wait { $0.state == .open && $0.deliveryVehicleId == nil })
            #expect(infos.wait { $0.state == .open && $0.vehicleLocation == nil })

            // Assigned: the task's journey and the shipment's vehicle appear.
            _ = try api.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: vehicle, remainingVehicleJourneySegments: [VehicleJourneySegment(stop: VehicleStop(
                    plannedLocation: LocationInfo(point: stop), tasks: [VehicleStop.TaskInfo(taskId: "k1")], state: .new))]),
                updateMask: ["remainingVehicleJourneySegments"]))
            #expect(tasks.wait { $0.deliveryVehicleId == "dv1" && $0.journeySharingInfo != nil })
            #expect(infos.wait { $0.vehicleLocation?.location == depot })

            // The vehicle moves: both follow it.
            let moved = LatLng(latitude: 48.105, longitude: 11.51)
            _ = try api.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: vehicle, lastLocation: DeliveryVehicleLocation(location: moved)),
                updateMask: ["lastLocation"]))
            #expect(tasks.wait { $0.journeySharingInfo?.lastLocation?.location == moved })
            #expect(infos.wait { $0.vehicleLocation?.location == moved })

            // The stop is left: the task is closed.
            _ = try api.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: vehicle, remainingVehicleJourneySegments: []),
                updateMask: ["remainingVehicleJourneySegments"]))
            #expect(tasks.wait { $0.state == .closed })
            #expect(infos.wait { $0.state == .closed })
            #expect(tasks.stop())
            #expect(infos.stop())
            #expect(tasks.failure.withLock { $0 } == nil)
            #expect(infos.failure.withLock { $0 } == nil)
            // Each delivery differs from the one before it: an unchanged answer is not sent again.
            for received in [tasks.received.withLock { $0 }.map { $0.jsonString() }, infos.received.withLock { $0 }.map { $0.jsonString() }] {
                #expect(received.count >= 4)
                #expect(zip(received, received.dropFirst()).allSatisfy { $0 != $1 })
            }
        }
    }
}
