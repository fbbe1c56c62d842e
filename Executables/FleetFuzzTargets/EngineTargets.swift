import FleetEngine
import FleetModel
import MemoryStore

extension FuzzTarget {
    /// The engine's write paths on a memory store, as a server runs them. Each line is one call: a
    /// letter, then the request's JSON (names default to vehicle `v1` and trip `t1` of provider `p`):
    /// `V` UpdateVehicle, `N` CreateVehicle, `C` CreateTrip, `U` UpdateTrip, `A` UpdateVehicleAttributes,
    /// `S` SearchVehicles, `L` ListVehicles, `D` DeleteTrip, `W` advances the clock by the seconds
    /// given. After every call both trips are read, which computes their progress from the vehicle.
    /// Errors are answers; a trap is a crash of the server.
    static let engine = FuzzTarget(name: "engine", summary: "Engine UpdateVehicle/CreateTrip/UpdateTrip/… on a memory store") { data in
        let clock = ManualClock()
        let engine = Engine(store: MemoryStore(), clock: clock)
        EngineScript.setUp(engine)
        for line in Array(data).split(separator: UInt8(ascii: "\n")).prefix(64) {
            guard let letter = line.first else { continue }
            let body = line.dropFirst()
            EngineScript.run(letter, body, engine: engine, clock: clock)
            for trip in ["t1", "t2"] {
                _ = try? engine.getTrip(GetTripRequest(name: "\(EngineScript.parent)/trips/\(trip)"))
            }
            _ = try? engine.getVehicle(GetVehicleRequest(name: "\(EngineScript.parent)/vehicles/v1"))
        }
    }
}

enum EngineScript {
    static let parent = "providers/p"
    static let vehicle1 = "\(parent)/vehicles/v1"
    static let trip1 = "\(parent)/trips/t1"

    /// Vehicle v1 online in Berlin with trip t1 assigned (the state the crash of issue 19 needed).
    static func setUp(_ engine: Engine) {
        _ = try? engine.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive, .shared],
            lastLocation: VehicleLocation(location: LatLng(latitude: 52.52, longitude: 13.40)),
            maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        _ = try? engine.createTrip(CreateTripRequest(parent: parent, tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive,
            pickupPoint: TerminalLocation(point: LatLng(latitude: 52.53, longitude: 13.41)),
            dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.50, longitude: 13.45)))))
    }

    static func run(_ letter: UInt8, _ body: ArraySlice<UInt8>, engine: Engine, clock: ManualClock) {
        switch letter {
        case UInt8(ascii: "V"):
            guard var r = try? UpdateVehicleRequest(jsonBytes: body) else { return }
            if r.name == nil { r.name = vehicle1 }
            _ = try? engine.updateVehicle(r)
        case UInt8(ascii: "N"):
            guard var r = try? CreateVehicleRequest(jsonBytes: body) else { return }
            if r.parent == nil { r.parent = parent }
            _ = try? engine.createVehicle(r)
        case UInt8(ascii: "C"):
            guard var r = try? CreateTripRequest(jsonBytes: body) else { return }
            if r.parent == nil { r.parent = parent }
            _ = try? engine.createTrip(r)
        case UInt8(ascii: "U"):
            guard var r = try? UpdateTripRequest(jsonBytes: body) else { return }
            if r.name == nil { r.name = trip1 }
            _ = try? engine.updateTrip(r)
        case UInt8(ascii: "A"):
            guard var r = try? UpdateVehicleAttributesRequest(jsonBytes: body) else { return }
            if r.name == nil { r.name = vehicle1 }
            _ = try? engine.updateVehicleAttributes(r)
        case UInt8(ascii: "S"):
            guard var r = try? SearchVehiclesRequest(jsonBytes: body) else { return }
            if r.parent == nil { r.parent = parent }
            _ = try? engine.searchVehicles(r)
        case UInt8(ascii: "L"):
            guard var r = try? ListVehiclesRequest(jsonBytes: body) else { return }
            if r.parent == nil { r.parent = parent }
            _ = try? engine.listVehicles(r)
        case UInt8(ascii: "D"):
            guard var r = try? DeleteTripRequest(jsonBytes: body) else { return }
            if r.name == nil { r.name = trip1 }
            _ = try? engine.deleteTrip(r)
        case UInt8(ascii: "W"):
            guard let seconds = Double(String(decoding: body, as: UTF8.self)), seconds.isFinite, abs(seconds) < 1e9 else { return }
            clock.advance(seconds: seconds)
        default:
            break
        }
    }
}
