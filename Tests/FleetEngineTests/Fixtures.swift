import FleetEngine
import FleetErrors
import FleetModel
import FleetRouting
import FleetStore
@_exported import FleetTestSupport
import MemoryStore
import Testing

/// An engine over a fresh memory store with a manual clock, plus builders for requests.
struct Fixture {
    let clock = ManualClock()
    let engine: Engine
    let provider = "test-project"

    init() {
        engine = Engine(store: MemoryStore(), clock: clock)
    }

    /// An engine over a fresh memory store with `configuration` (a router, say).
    init(configuration: EngineConfiguration) {
        engine = Engine(store: MemoryStore(), clock: clock, configuration: configuration)
    }

    /// An engine over a fresh memory store that plans routes on roads with `router`.
    init(router: any Router) {
        var configuration = EngineConfiguration()
        configuration.router = router
        self.init(configuration: configuration)
    }

    /// An engine over `store` (a file another engine may share), with `configuration`.
    init(store: any Store, configuration: EngineConfiguration = EngineConfiguration()) {
        engine = Engine(store: store, clock: clock, configuration: configuration)
    }

    var parent: String { "providers/\(provider)" }
    func vehicleName(_ id: String) -> String { "providers/\(provider)/vehicles/\(id)" }
    func tripName(_ id: String) -> String { "providers/\(provider)/trips/\(id)" }

    static func point(_ lat: Double, _ lng: Double) -> LatLng { LatLng(latitude: lat, longitude: lng) }
    static func terminal(_ lat: Double, _ lng: Double) -> TerminalLocation { TerminalLocation(point: point(lat, lng)) }

    /// A vehicle that can take any trip, ONLINE at a place.
    @discardableResult
    func createVehicle(_ id: String, at location: (Double, Double)? = (52.52, 13.40), capacity: Int32 = 4,
                       types: [TripType] = [.exclusive, .shared], category: VehicleType.Category = .auto,
                       backToBack: Bool? = nil, attributes: [VehicleAttribute] = [],
                       state: VehicleState = .online) throws -> Vehicle {
        var v = Vehicle(vehicleState: state, supportedTripTypes: types, maximumCapacity: capacity,
                        vehicleType: VehicleType(category: category))
        v.attributes = attributes
        v.backToBackEnabled = backToBack
        if let location {
            v.lastLocation = VehicleLocation(location: Self.point(location.0, location.1))
        }
        return try engine.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: id, vehicle: v))
    }

    @discardableResult
    func createTrip(_ id: String, type: TripType = .exclusive, pickup: (Double, Double) = (52.53, 13.41),
                    dropoff: (Double, Double)? = (52.50, 13.45), vehicle: String? = nil, passengers: Int32? = nil,
                    intermediates: [(Double, Double)] = [], vehicleWaypoints: [TripWaypoint] = []) throws -> Trip {
        var t = Trip(tripType: type, pickupPoint: Self.terminal(pickup.0, pickup.1))
        if let dropoff { t.dropoffPoint = Self.terminal(dropoff.0, dropoff.1) }
        t.vehicleId = vehicle
        t.numberOfPassengers = passengers
        t.intermediateDestinations = intermediates.map { Self.terminal($0.0, $0.1) }
        t.vehicleWaypoints = vehicleWaypoints
        return try engine.createTrip(CreateTripRequest(parent: parent, tripId: id, trip: t))
    }

    @discardableResult
    func setStatus(_ trip: String, _ status: TripStatus, index: Int32? = nil) throws -> Trip {
        var t = Trip(tripStatus: status)
        var paths = ["tripStatus"]
        if let index {
            t.intermediateDestinationIndex = index
            paths.append("intermediateDestinationIndex")
        }
        return try engine.updateTrip(UpdateTripRequest(name: tripName(trip), trip: t, updateMask: FieldMask(paths)))
    }

    @discardableResult
    func assign(_ trip: String, to vehicle: String) throws -> Trip {
        try engine.updateTrip(UpdateTripRequest(name: tripName(trip), trip: Trip(vehicleId: vehicle),
                                                updateMask: FieldMask(["vehicleId"])))
    }

    @discardableResult
    func move(_ vehicle: String, to lat: Double, _ lng: Double) throws -> Vehicle {
        try engine.updateVehicle(UpdateVehicleRequest(
            name: vehicleName(vehicle),
            vehicle: Vehicle(lastLocation: VehicleLocation(location: Self.point(lat, lng))),
            updateMask: FieldMask(["lastLocation"])))
    }

    func vehicle(_ id: String) throws -> Vehicle {
        try engine.getVehicle(GetVehicleRequest(name: vehicleName(id)))
    }

    func trip(_ id: String) throws -> Trip {
        try engine.getTrip(GetTripRequest(name: tripName(id)))
    }
}

