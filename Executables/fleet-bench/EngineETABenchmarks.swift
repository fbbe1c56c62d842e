import FleetEngine
import FleetGeo
import FleetLearning
import FleetModel
import Foundation
import MemoryStore

/// What learned ETAs and live traffic cost the engine's whole UpdateVehicle, not only its ETA path: ten vehicles on
/// trips along a 10 km road report every 5 s each through `Engine.updateVehicle` (the request parsed, the record
/// read and written, the trips' ETAs, the history point), on the memory store so that no disk hides any of it, with
/// the engine's default settings against `learnedETAs = nil` (`fleet-admin serve --learned-etas off`). The geo rows
/// before these give the ETA path alone; these give what it weighs in the update a caller waits for.
enum EngineETABenchmarks {
    static let vehicles = 10
    /// Rounds of each setting, alternating, each on a fresh engine and store.
    static let rounds = 8
    /// Reports of each vehicle before the measured ones (the live speeds fill, the learned tables are read).
    static let warmUpReports = 40
    static let measuredReports = 150

    static func run() -> [BenchmarkRow] {
        // A winding road of 10 km, a point every 25 m.
        let road = BenchmarkRoute(pointCount: 401, spacingMeters: 25...25).route
        // Learned at every hour of the week: which quarter hour the engine's time zone makes of the clock changes nothing.
        let learned = GeoBenchmarks.learnedEveryHour(along: road, metersPerSecond: 9).rows
        var cpu: [Bool: [Double]] = [true: [], false: []]
        do {
            for round in 0..<rounds {
                for on in round % 2 == 0 ? [false, true] : [true, false] {
                    cpu[on, default: []].append(try cpuMicrosecondsPerUpdate(road: road, learned: learned, learnedETAs: on))
                }
            }
        } catch {
            return [BenchmarkRow(name: "UpdateVehicle on trips, learned ETAs + live traffic against off", failed: "\(error)")]
        }
        let median = GRPCBenchmarks.median
        let off = median(cpu[false] ?? [0]), on = median(cpu[true] ?? [0])
        func listed(_ values: [Double]) -> String { values.map { String(format: "%.1f", $0) }.joined(separator: ", ") }
        let baseline = "UpdateVehicle on trips, memory store, --learned-etas off"
        return [
            BenchmarkRow(name: baseline, value: .microseconds(off),
                         comparison: "process CPU per update, median of \(rounds) rounds (\(listed(cpu[false] ?? []))); "
                             + "\(vehicles) vehicles every 5 s on a 10 km road, 3 waypoints ahead each"),
            BenchmarkRow(name: "UpdateVehicle on trips, memory store, learned ETAs + live traffic", value: .microseconds(on),
                         comparison: String(format: "%.2fx --learned-etas off, +%.1f µs; rounds ", on / off, on - off) + listed(cpu[true] ?? []),
                         ratio: on / off, baseline: baseline),
        ]
    }

    /// One round: a fresh engine; each vehicle gets a trip (pickup at 95% of the road, dropoff at its end) and the
    /// road as its route, starts at 3% of the road times its number, and reports every 5 s (the clock moves 0.5 s
    /// an update, the vehicles taking turns), driving 9 m/s but for a 2 m/s crawl over 40–46% of the road and 5 m/s
    /// over 60–66%, so that those behind see a jam and a slow stretch. The process's CPU time (every thread: the
    /// engine's background reads of the learned tables included) per measured update.
    private static func cpuMicrosecondsPerUpdate(road route: Route, learned: [PieceObservation], learnedETAs: Bool) throws -> Double {
        var configuration = EngineConfiguration()
        if !learnedETAs { configuration.learnedETAs = nil }
        let clock = ManualClock(Timestamp(seconds: 1_769_421_600, nanos: 0))
        let engine = Engine(store: MemoryStore(), clock: clock, configuration: configuration)
        let provider = "providers/bench"
        try engine.learnedTimesStorage.add(learned, provider: "bench")
        let total = route.totalMeters
        func location(_ meters: Double) -> LatLng {
            let point = route.point(atMeters: meters)
            return LatLng(latitude: point.latitude, longitude: point.longitude)
        }
        var along: [Double] = []
        for v in 0..<vehicles {
            let meters = total * 0.03 * Double(v)
            along.append(meters)
            _ = try engine.createVehicle(CreateVehicleRequest(parent: provider, vehicleId: "v\(v)",
                                                              vehicle: EngineBenchmarks.vehicle(at: location(meters))))
            var trip = Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: location(total * 0.95)))
            trip.dropoffPoint = TerminalLocation(point: location(total))
            trip.vehicleId = "v\(v)"
            _ = try engine.createTrip(CreateTripRequest(parent: provider, tripId: "t\(v)", trip: trip))
            _ = try engine.updateVehicle(UpdateVehicleRequest(name: "\(provider)/vehicles/v\(v)",
                                                              vehicle: Vehicle(currentRouteSegment: Polyline.encode(route.points)),
                                                              updateMask: FieldMask(["currentRouteSegment"])))
        }
        func report(_ v: Int) throws {
            let share = along[v] / total
            along[v] += 5 * ((0.40..<0.46).contains(share) ? 2 : (0.60..<0.66).contains(share) ? 5 : 9)
            clock.advance(seconds: 5 / Double(vehicles))
            _ = try engine.updateVehicle(UpdateVehicleRequest(name: "\(provider)/vehicles/v\(v)",
                                                              vehicle: Vehicle(lastLocation: VehicleLocation(location: location(along[v]))),
                                                              updateMask: FieldMask(["lastLocation"])))
        }
        for _ in 0..<warmUpReports {
            for v in 0..<vehicles { try report(v) }
        }
        let start = ProcessUsage.current().cpuSeconds
        for _ in 0..<measuredReports {
            for v in 0..<vehicles { try report(v) }
        }
        return (ProcessUsage.current().cpuSeconds - start) * 1e6 / Double(measuredReports * vehicles)
    }
}
