import FleetGeo
import Foundation
import FleetRandom

/// A drive through San Francisco (Ferry Building → Market Street → Van Ness Avenue → Lombard Street →
/// Divisadero, about 7.8 km) simulated second by second with its own physics, independent of the ETA model:
/// acceleration and braking limits, slowing for the two turns, traffic lights with their own cycles, a stop-and-go
/// jam on Van Ness and slow traffic on Lombard. Every 10 s the vehicle reports a noisy GPS fix; the test compares
/// the predicted arrival times with the simulated ones.
struct SimulatedDrive {
    /// Street corners (latitude, longitude) the route follows, in order.
    static let corners: [GeoPoint] = [
        GeoPoint(latitude: 37.79450, longitude: -122.39440),  // Ferry Building
        GeoPoint(latitude: 37.78930, longitude: -122.40110),  // Market & 2nd
        GeoPoint(latitude: 37.78390, longitude: -122.40790),  // Market & 5th
        GeoPoint(latitude: 37.77790, longitude: -122.41540),  // Market & 8th
        GeoPoint(latitude: 37.77520, longitude: -122.41920),  // Market & Van Ness: right turn
        GeoPoint(latitude: 37.78030, longitude: -122.42030),  // Van Ness & McAllister
        GeoPoint(latitude: 37.78560, longitude: -122.42140),  // Van Ness & Geary
        GeoPoint(latitude: 37.79070, longitude: -122.42240),  // Van Ness & California
        GeoPoint(latitude: 37.79840, longitude: -122.42410),  // Van Ness & Union
        GeoPoint(latitude: 37.80140, longitude: -122.42470),  // Van Ness & Lombard: left turn
        GeoPoint(latitude: 37.79940, longitude: -122.43600),  // Lombard & Fillmore
        GeoPoint(latitude: 37.79870, longitude: -122.44240),  // Lombard & Divisadero
    ]
    /// Indices in `corners` of the two real turns.
    static let turnCorners = [4, 9]

    /// A traffic light: where it stands along the route and its cycle.
    struct Light {
        var meters: Double
        var cycleSeconds: Double
        var redSeconds: Double
        var offsetSeconds: Double
        func isRed(at time: Double) -> Bool {
            (time + offsetSeconds).truncatingRemainder(dividingBy: cycleSeconds) < redSeconds
        }
    }

    /// What a run measured, per waypoint.
    struct Report {
        /// When the vehicle really got to each waypoint, seconds after the start.
        var arrivalSeconds: [Double]
        /// Mean absolute error of the predicted arrival time over the updates before arrival, seconds.
        var meanAbsoluteError: [Double]
        /// Largest absolute error, seconds.
        var maximumError: [Double]
        /// Number of updates compared.
        var updates: [Int]
    }

    let route: Route
    let cornerMeters: [Double]
    let lights: [Light]
    let jam: ClosedRange<Double>
    let slow: ClosedRange<Double>
    let waypoints: [GeoPoint]
    /// The same route at night: streets driven 35 % faster, short red phases, no jam and no slow traffic.
    let isNight: Bool

    init(seed: UInt64, night: Bool = false) {
        isNight = night
        var generator = SeededRandom(seed: seed)
        // Densify to a point every ~20 m, as a routing service's polyline would be on curves.
        var points: [GeoPoint] = []
        var cornerIndices: [Int] = []
        for index in 0..<(Self.corners.count - 1) {
            let a = Self.corners[index]
            let b = Self.corners[index + 1]
            cornerIndices.append(points.count)
            let steps = max(1, Int((Geodesy.distance(a, b) / 20).rounded(.up)))
            for step in 0..<steps { points.append(Geodesy.interpolate(a, b, fraction: Double(step) / Double(steps))) }
        }
        cornerIndices.append(points.count)
        points.append(Self.corners[Self.corners.count - 1])
        let route = Route(points: points)!
        self.route = route
        let cornerMeters = cornerIndices.map { route.cumulativeMeters[$0] }
        self.cornerMeters = cornerMeters

        let vanNess = cornerMeters[4]
        let lombard = cornerMeters[9]
        let jam = (vanNess + 700)...(vanNess + 1500)
        self.jam = jam
        slow = lombard...(lombard + 700)
        // A light every 220–420 m (San Francisco has one at most blocks), none inside the jam.
        var lights: [Light] = []
        var at = 150.0
        while at < route.totalMeters - 100 {
            if !jam.contains(at) {
                let cycle = Double.random(in: 70...110, using: &generator)
                let redShare = night ? Double.random(in: 0.15...0.3, using: &generator)
                    : Double.random(in: 0.35...0.55, using: &generator)
                lights.append(Light(meters: at, cycleSeconds: cycle, redSeconds: cycle * redShare,
                                    offsetSeconds: Double.random(in: 0..<cycle, using: &generator)))
            }
            at += Double.random(in: 220...420, using: &generator)
        }
        self.lights = lights
        // The intermediate destination at Van Ness & California, past the jam; the drop-off at the end.
        waypoints = [Self.corners[7], Self.corners[11]]
    }

    /// The traffic data the server would have: the jam as a TRAFFIC_JAM interval that starts a little late and
    /// ends a little early (traffic feeds lag and smooth), the slow stretch as SLOW, everything else NORMAL.
    func trafficIntervals() -> [TrafficInterval] {
        if isNight {
            return [TrafficInterval(startPointIndex: 0, endPointIndex: route.points.count - 1, speed: .normal)]
        }
        func index(_ meters: Double) -> Int { route.location(atMeters: meters).segmentIndex }
        let last = route.points.count - 1
        return [
            TrafficInterval(startPointIndex: 0, endPointIndex: index(jam.lowerBound + 80), speed: .normal),
            TrafficInterval(startPointIndex: index(jam.lowerBound + 80), endPointIndex: index(jam.upperBound - 60),
                            speed: .trafficJam),
            TrafficInterval(startPointIndex: index(jam.upperBound - 60), endPointIndex: index(slow.lowerBound),
                            speed: .normal),
            TrafficInterval(startPointIndex: index(slow.lowerBound), endPointIndex: index(slow.upperBound),
                            speed: .slow),
            TrafficInterval(startPointIndex: index(slow.upperBound), endPointIndex: last, speed: .normal),
        ]
    }

    /// The driver's wish at `meters` and `time` before braking limits: street speed, slow traffic, jam waves.
    private func desiredSpeed(at meters: Double, time: Double) -> Double {
        let street: Double = (meters < cornerMeters[4] ? 11.5 : (meters < cornerMeters[9] ? 13.5 : 12.5))
            * (isNight ? 1.35 : 1)
        if isNight { return street }
        if jam.contains(meters) {
            // Stop-and-go: creep at 5 m/s for 15 s, stand for 12 s.
            return time.truncatingRemainder(dividingBy: 27) < 15 ? 5 : 0
        }
        if slow.contains(meters) { return street * 0.55 }
        return street
    }

    /// Simulates the drive and, every `reportInterval` seconds, asks the ETA model. `useTraffic` false withholds
    /// the traffic data from the model, `useObservations` false the vehicle's positions (to show that they matter).
    func run(useTraffic: Bool = true, useObservations: Bool = true, model: SpeedModel = .standard,
             reportInterval: Double = 10, seed: UInt64 = 99) -> Report {
        var generator = SeededRandom(seed: seed)
        let acceleration = 1.5, comfortableBraking = 2.5, hardBraking = 4.0, turnSpeed = 5.0
        let turns = Self.turnCorners.map { cornerMeters[$0] }
        let along = RouteWaypoints(route: route, positions: waypoints)
        let waypointMeters = along.waypoints.map { $0.alongRouteMeters! }

        // 1. The truth: integrate the drive with a 0.25 s step, recording where the vehicle is at each report.
        var meters = 0.0, speed = 0.0, time = 0.0
        let step = 0.25
        var arrivals = [Double](repeating: .nan, count: waypointMeters.count)
        var reports: [(time: Double, meters: Double, speed: Double)] = []
        while meters < route.totalMeters && time < 4 * 3600 {
            if time.truncatingRemainder(dividingBy: reportInterval) < step / 2 {
                reports.append((time, meters, speed))
            }
            var target = desiredSpeed(at: meters, time: time)
            for turn in turns where turn + 15 > meters {
                target = min(target, (turnSpeed * turnSpeed + 2 * comfortableBraking * max(0, turn - 15 - meters))
                    .squareRoot())
            }
            if let light = lights.first(where: { $0.meters > meters }), light.isRed(at: time) {
                let gap = light.meters - 2 - meters
                // Too close to stop comfortably when it turned: the driver goes through on amber.
                if speed * speed / (2 * hardBraking) < gap + 2 {
                    target = min(target, (2 * comfortableBraking * max(0, gap)).squareRoot())
                }
            }
            target = min(target, (2 * comfortableBraking * max(0, route.totalMeters - meters)).squareRoot() + 0.3)
            speed = target > speed ? min(target, speed + acceleration * step) : max(target, speed - hardBraking * step)
            meters += speed * step
            time += step
            for (index, goal) in waypointMeters.enumerated() where arrivals[index].isNaN && meters >= goal - 0.5 {
                arrivals[index] = time
            }
        }

        // 2. The model, fed only what a server sees: noisy fixes, a heading when moving, the traffic data.
        let traffic = useTraffic ? TrafficProfile(route: route, intervals: trafficIntervals()) : .none
        var progress = RouteProgress(route: route)
        var estimator = ETAEstimator(category: .auto, model: model)
        var errorSums = [Double](repeating: 0, count: waypoints.count)
        var maxima = [Double](repeating: 0, count: waypoints.count)
        var counts = [Int](repeating: 0, count: waypoints.count)
        for report in reports {
            let truth = route.point(atMeters: report.meters)
            let fix = Geodesy.destination(from: truth, bearing: Double.random(in: 0..<360, using: &generator),
                                          meters: abs(generator.gaussian(standardDeviation: 5)))
            let (segment, _) = route.location(atMeters: report.meters)
            let heading: Double? = report.speed > 2
                ? Geodesy.initialBearing(route.points[segment], route.points[segment + 1])
                    + generator.gaussian(standardDeviation: 8)
                : nil
            let match = progress.update(fix, heading: heading)
            if useObservations {
                estimator.observe(position: fix, at: report.time,
                                  traffic: traffic.speed(atMeters: match.travelledMeters))
            }
            let etas = estimator.estimate(from: match, waypoints: along, traffic: traffic, now: report.time)
            for index in waypoints.indices where report.time < arrivals[index] {
                let error = abs(etas[index].arrivalTime - arrivals[index])
                errorSums[index] += error
                maxima[index] = max(maxima[index], error)
                counts[index] += 1
            }
        }
        return Report(arrivalSeconds: arrivals,
                      meanAbsoluteError: zip(errorSums, counts).map { $0 / Double(max(1, $1)) },
                      maximumError: maxima, updates: counts)
    }
}
