import FleetErrors
import FleetGeo
import FleetRouting
import Foundation
import RoutinoRouter
import StraightRouter

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
            return [BenchmarkRow(name: "route plan (routino)", value: "skipped", comparison: "no map in \(directory): run make map")]
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
            BenchmarkRow(name: "route plan, routino, \(pairs.count) Helsinki pairs, p50", value: milliseconds(percentile(cold, 50)),
                         comparison: "snapping both ends included; \(routed) routed, \(failures) no route"),
            BenchmarkRow(name: "route plan, routino, p99", value: milliseconds(percentile(cold, 99)), comparison: "aim p99 <= 5 ms"),
            BenchmarkRow(name: "route plan, routino, snapped points cached, p50", value: milliseconds(percentile(warm, 50)),
                         comparison: "p99 \(milliseconds(percentile(warm, 99)))"),
            BenchmarkRow(name: "route plan, straight estimate, p50", value: milliseconds(percentile(baseline, 50)),
                         comparison: "baseline (no map)"),
        ]
    }

    /// Pairs of points drawn inside the extract's box (lat 60.164–60.179, lon 24.935–24.953).
    static func randomPairs(count: Int, seed: UInt64) -> [RouteRequest] {
        var state = seed
        func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
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

    static func milliseconds(_ nanoseconds: Double) -> String {
        nanoseconds < 10_000 ? String(format: "%.1f µs", nanoseconds / 1000) : String(format: "%.2f ms", nanoseconds / 1_000_000)
    }
}
