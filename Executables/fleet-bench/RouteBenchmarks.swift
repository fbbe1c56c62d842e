import FleetEngine
import FleetErrors
import FleetGeo
import FleetModel
import FleetRouting
import Foundation
import MemoryStore
import RoutinoRouter
import StraightRouter
import FleetRandom

/// `make bench` rows for routing: route plans on the Helsinki sample map (`make map`), over a few
/// hundred seeded random pairs inside it, with Routino (snapping included, then with snapped points
/// cached as the engine's repeated waypoints are) against the straight-line estimate in the same run.
enum RouteBenchmarks {
    /// The map: `FLEET_MAP_DIR`, else `.build/map` in the current folder (where `make bench` runs).
    static var mapDirectory: String {
        ProcessInfo.processInfo.environment["FLEET_MAP_DIR"] ?? FileManager.default.currentDirectoryPath + "/.build/map"
    }

    static func run() -> [BenchmarkRow] {
        let directory = mapDirectory
        let router: RoutinoRouter
        do {
            router = try RoutinoRouter(directory: directory)
        } catch {
            return [BenchmarkRow(name: "route plan (routino)", skipped: "no map in \(directory): run make map")]
        }
        let pairs = randomPairs(count: 400, seed: 2026)
        // Cold: every point is new, so each plan snaps both ends (Routino_FindWaypoint) and routes.
        var failures = 0
        let cold = latencies(pairs) { request in
            do { _ = try router.route(request) } catch { failures += 1 }
        }
        // Warm: the same pairs again; the snapped points come from the cache.
        let warm = latencies(pairs) { request in _ = try? router.route(request) }
        let straight = StraightRouter()
        let baseline = latencies(pairs) { request in _ = try? straight.route(request) }
        let routed = pairs.count - failures
        return [
            BenchmarkRow(name: "route plan, routino, \(pairs.count) Helsinki pairs, p50", value: duration(percentile(cold, 50)),
                         comparison: "snapping both ends included; \(routed) routed, \(failures) no route"),
            BenchmarkRow(name: "route plan, routino, p99", value: duration(percentile(cold, 99)), comparison: "aim p99 <= 5 ms"),
            BenchmarkRow(name: "route plan, routino, snapped points cached, p50", value: duration(percentile(warm, 50)),
                         comparison: "p99 \(milliseconds(percentile(warm, 99)))"),
            BenchmarkRow(name: "route plan, straight estimate, p50", value: duration(percentile(baseline, 50)),
                         comparison: "baseline (no map)"),
        ] + searchRows(router: router)
    }

    /// SearchVehicles ordered by pickup ETA among 1,000 vehicles all within the radius, with road ETAs
    /// (the engine's router) against the same searches on great-circle estimates, in the same run.
    static func searchRows(router: RoutinoRouter) -> [BenchmarkRow] {
        let fleet = randomPairs(count: 500, seed: 7).flatMap { [$0.waypoints[0], $0.waypoints[1]] }
        let pickups = randomPairs(count: 200, seed: 8).map { $0.waypoints[0] }
        func searchTimes(_ configuration: EngineConfiguration) throws -> [Double] {
            let engine = Engine(store: MemoryStore(), configuration: configuration)
            for (i, point) in fleet.enumerated() {
                _ = try engine.createVehicle(CreateVehicleRequest(
                    parent: "providers/bench", vehicleId: "v\(i)",
                    vehicle: EngineBenchmarks.vehicle(at: LatLng(latitude: point.latitude, longitude: point.longitude))))
            }
            var times: [Double] = []
            for pickup in pickups {
                let request = SearchVehiclesRequest(parent: "providers/bench", pickupPoint: TerminalLocation(point: LatLng(latitude: pickup.latitude, longitude: pickup.longitude)),
                                                    pickupRadiusMeters: 3000, count: 10, minimumCapacity: 1, tripTypes: [.exclusive],
                                                    vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta)
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try engine.searchVehicles(request)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start))
            }
            return times.sorted()
        }
        do {
            var roads = EngineConfiguration()
            roads.router = router
            let estimated = try searchTimes(EngineConfiguration())
            let routed = try searchTimes(roads)
            return [
                BenchmarkRow(name: "SearchVehicles by pickup ETA, 1k vehicles in range, road ETAs, p50", value: duration(percentile(routed, 50)),
                             comparison: "p99 \(milliseconds(percentile(routed, 99))); aim p99 <= 20 ms"),
                BenchmarkRow(name: "  the same searches on great-circle estimates, p50", value: duration(percentile(estimated, 50)),
                             comparison: "p99 \(milliseconds(percentile(estimated, 99))) (baseline, no router)"),
            ]
        } catch {
            return [BenchmarkRow(name: "SearchVehicles with road ETAs", failed: "\(error)")]
        }
    }

    /// Pairs of points drawn inside the extract's box (lat 60.164–60.179, lon 24.935–24.953).
    static func randomPairs(count: Int, seed: UInt64) -> [RouteRequest] {
        var random = SeededRandom(seed: seed)
        func unit() -> Double { random.unit() }
        func point() -> GeoPoint { GeoPoint(latitude: 60.1655 + unit() * 0.0125, longitude: 24.9365 + unit() * 0.015) }
        return (0..<count).map { _ in RouteRequest(from: point(), to: point(), category: .auto) }
    }

    /// Each request's wall time in nanoseconds, sorted.
    static func latencies(_ requests: [RouteRequest], _ body: (RouteRequest) -> Void) -> [Double] {
        var times: [Double] = []
        times.reserveCapacity(requests.count)
        for request in requests {
            let start = DispatchTime.now().uptimeNanoseconds
            body(request)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return times.sorted()
    }

    static func percentile(_ sorted: [Double], _ p: Int) -> Double {
        sorted[min(sorted.count - 1, sorted.count * p / 100)]
    }

    /// A time in nanoseconds as a figure: in µs below 10 µs, else in ms.
    static func duration(_ nanoseconds: Double) -> Figure {
        nanoseconds < 10_000 ? .microseconds(nanoseconds / 1000) : .milliseconds(nanoseconds / 1_000_000)
    }

    /// `duration` as the table shows it.
    static func milliseconds(_ nanoseconds: Double) -> String { duration(nanoseconds).text }
}
