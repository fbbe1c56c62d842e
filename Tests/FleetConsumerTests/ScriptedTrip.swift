import FleetEngine
import FleetGeo
import FleetInterface
import FleetModel
import Synchronization

/// A trip driven step by step through the Fleet Engine calls, as a provider's backend and a driver's
/// app would: created, assigned, the vehicle given a route and moved along it, the status advanced
/// to COMPLETE. Every step changes what the rider sees, so a watcher gets one update per step.
///
/// The vehicle starts at (52.5, 13.38) and drives east: pickup at 13.40 (about 1.36 km), dropoff at
/// 13.43 (about 2 km further).
final class ScriptedTrip: Sendable {
    /// One step: its name and what it does.
    struct Step: Sendable {
        let name: String
        let run: @Sendable (ScriptedTrip) throws -> Void
    }

    static let provider = "scripted"
    static let tripID = "ride-1"
    static let vehicleID = "car-1"
    static var tripName: String { "providers/\(provider)/trips/\(tripID)" }
    static var vehicleName: String { "providers/\(provider)/vehicles/\(vehicleID)" }

    static let latitude = 52.5
    static let start = 13.38
    static let pickup = 13.40
    static let dropoff = 13.43
    /// Longitudes the vehicle stops at on the way to the pickup, then to the dropoff.
    static let toPickup = [13.385, 13.39, 13.395, 13.40]
    static let toDropoff = [13.4075, 13.415, 13.4225, 13.43]

    let api: any FleetAPI
    let clock: ManualClock
    private let next = Mutex(0)

    init(api: any FleetAPI, clock: ManualClock) {
        self.api = api
        self.clock = clock
    }

    /// Creates the vehicle (at the start, with no trip) and the trip (NEW, unassigned).
    func create() throws {
        var vehicle = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                              vehicleType: VehicleType(category: .auto))
        vehicle.lastLocation = VehicleLocation(location: Self.point(Self.start))
        _ = try api.createVehicle(CreateVehicleRequest(parent: "providers/\(Self.provider)", vehicleId: Self.vehicleID, vehicle: vehicle))
        let trip = Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: Self.point(Self.pickup)),
                        dropoffPoint: TerminalLocation(point: Self.point(Self.dropoff)))
        _ = try api.createTrip(CreateTripRequest(parent: "providers/\(Self.provider)", tripId: Self.tripID, trip: trip))
    }

    /// The steps after creation, in order.
    static let steps: [Step] = {
        var steps: [Step] = [
            Step(name: "assign") { try $0.assign() },
            Step(name: "enroute to pickup") { try $0.setStatus(.enrouteToPickup) },
            Step(name: "route to pickup") { try $0.setRoute(from: start, to: pickup, slowStretch: true) },
        ]
        for longitude in toPickup {
            steps.append(Step(name: "move to \(longitude)") { try $0.move(to: longitude, after: 30) })
        }
        steps += [
            Step(name: "arrived at pickup") { try $0.setStatus(.arrivedAtPickup) },
            Step(name: "enroute to dropoff") { try $0.setStatus(.enrouteToDropoff) },
            Step(name: "route to dropoff") { try $0.setRoute(from: pickup, to: dropoff, slowStretch: false) },
        ]
        for longitude in toDropoff {
            steps.append(Step(name: "move to \(longitude)") { try $0.move(to: longitude, after: 45) })
        }
        steps.append(Step(name: "complete") { try $0.setStatus(.complete) })
        return steps
    }()

    /// Runs the next step; false when none is left.
    @discardableResult
    func runNextStep() throws -> Bool {
        let index = next.withLock { index in
            defer { index += 1 }
            return index
        }
        guard index < Self.steps.count else { return false }
        try Self.steps[index].run(self)
        return true
    }

    // MARK: Calls

    func assign() throws {
        _ = try api.updateTrip(UpdateTripRequest(name: Self.tripName, trip: Trip(vehicleId: Self.vehicleID),
                                                 updateMask: FieldMask(["vehicleId"])))
    }

    func setStatus(_ status: TripStatus) throws {
        _ = try api.updateTrip(UpdateTripRequest(name: Self.tripName, trip: Trip(tripStatus: status),
                                                 updateMask: FieldMask(["tripStatus"])))
    }

    /// Sets the route to the next waypoint: a straight road east with a point every 0.0025°; with
    /// `slowStretch`, 200 m of slower traffic from 300 m on.
    func setRoute(from west: Double, to east: Double, slowStretch: Bool) throws {
        let count = Int(((east - west) / 0.0025).rounded())
        let points = (0...count).map { GeoPoint(latitude: Self.latitude, longitude: west + Double($0) * 0.0025) }
        var stretches: [VisualTrafficReportPolylineRendering.RoadStretch] = []
        if slowStretch {
            stretches.append(.init(style: .slowerTraffic, offsetMeters: 300, lengthMeters: 200))
        }
        let vehicle = Vehicle(
            currentRouteSegment: Polyline.encode(points),
            currentRouteSegmentTraffic: TrafficPolylineData(trafficRendering: .init(roadStretch: stretches)))
        _ = try api.updateVehicle(UpdateVehicleRequest(name: Self.vehicleName, vehicle: vehicle,
                                                       updateMask: FieldMask(["currentRouteSegment", "currentRouteSegmentTraffic"])))
    }

    /// Moves the vehicle east to `longitude`, `seconds` after its last position.
    func move(to longitude: Double, after seconds: Double) throws {
        clock.advance(seconds: seconds)
        _ = try api.updateVehicle(UpdateVehicleRequest(
            name: Self.vehicleName, vehicle: Vehicle(lastLocation: VehicleLocation(location: Self.point(longitude))),
            updateMask: FieldMask(["lastLocation"])))
    }

    static func point(_ longitude: Double) -> LatLng {
        LatLng(latitude: latitude, longitude: longitude)
    }
}
