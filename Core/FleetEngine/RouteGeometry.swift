import FleetGeo
import FleetModel

/// Conversions between Fleet Engine's route fields and FleetGeo's geometry.
enum RouteGeometry {
    /// Great-circle distance in metres.
    static func distance(_ a: LatLng, _ b: LatLng) -> Double {
        Geodesy.distance(GeoPoint(a), GeoPoint(b))
    }

    /// Driving distance when no route is known: great circle times the detour factor.
    static func drivingEstimate(_ a: LatLng, _ b: LatLng) -> Double {
        distance(a, b) * SpeedModel.standard.detourFactor
    }

    /// The default speed of a vehicle category, metres per second.
    static func defaultSpeed(_ category: VehicleType.Category?) -> Double {
        SpeedModel.standard.defaultMetersPerSecond(for: VehicleCategory(category))
    }

    /// The driver's traffic report (stretches in metres along the route) as point-index intervals.
    static func intervals(_ traffic: TrafficPolylineData?, route: Route) -> [TrafficInterval] {
        guard let stretches = traffic?.trafficRendering?.roadStretch else { return [] }
        return stretches.compactMap { stretch in
            let speed: TrafficSpeed
            switch stretch.style {
            case .slowerTraffic?: speed = .slow
            case .trafficJam?: speed = .trafficJam
            default: return nil
            }
            let start = Double(stretch.offsetMeters ?? 0)
            let end = start + Double(stretch.lengthMeters ?? 0)
            guard end > start else { return nil }
            let first = route.location(atMeters: start).segmentIndex
            let last = route.location(atMeters: end)
            let endIndex = min(route.points.count - 1, last.segmentIndex + (last.fraction > 0 ? 1 : 0))
            return TrafficInterval(startPointIndex: first, endPointIndex: max(first + 1, endIndex), speed: speed)
        }
    }

    /// The traffic a trip shows its rider: speed intervals over the whole route segment, NORMAL where the
    /// driver reported nothing.
    static func consumableTraffic(_ traffic: TrafficPolylineData, route: Route, segment: String) -> ConsumableTrafficPolyline? {
        let points = route.points
        guard points.count > 1 else { return nil }
        var result: [SpeedReadingInterval] = []
        var cursor = 0
        func add(_ from: Int, _ to: Int, _ speed: SpeedReadingInterval.Speed) {
            guard to > from else { return }
            result.append(SpeedReadingInterval(startPolylinePointIndex: Int32(from), endPolylinePointIndex: Int32(to), speed: speed))
        }
        for interval in intervals(traffic, route: route).sorted(by: { $0.startPointIndex < $1.startPointIndex }) {
            let start = max(cursor, interval.startPointIndex)
            add(cursor, start, .normal)
            add(start, interval.endPointIndex, interval.speed == .trafficJam ? .trafficJam : .slow)
            cursor = max(cursor, interval.endPointIndex)
        }
        add(cursor, points.count - 1, .normal)
        return ConsumableTrafficPolyline(speedReadingInterval: result, encodedPathToWaypoint: segment)
    }
}

extension GeoPoint {
    init(_ point: LatLng) {
        self.init(latitude: point.latitude, longitude: point.longitude)
    }
}

extension VehicleCategory {
    init(_ category: VehicleType.Category?) {
        self = category.flatMap { VehicleCategory(rawValue: $0.name) } ?? .unknown
    }
}
