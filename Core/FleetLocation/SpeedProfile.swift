import FleetGeo

/// When a simulated vehicle is where along its route: a drive that starts from rest, accelerates to its
/// cruise speed, brakes for sharp turns and stops, waits at each stop, and halts at the route's end.
///
/// Built once (O(route length / 5 m)), then `position(atSeconds:)` answers in O(log n). Speeds follow
/// constant acceleration and braking: the fastest profile that respects the cruise speed, every corner's
/// turn speed and every stop.
public struct SpeedProfile: Sendable {
    /// The route driven.
    public let route: Route
    /// How the vehicle drives.
    public let style: DrivingStyle
    /// The stops, in order along the route (clamped to it).
    public let stops: [SimulatedStop]

    private var meters: [Double] = [0]
    private var seconds: [Double] = [0]
    private var speeds: [Double] = [0]

    /// Where the vehicle is at one moment.
    public struct State: Sendable, Hashable {
        /// Distance from the start along the route, metres.
        public var meters: Double
        /// Speed, metres per second.
        public var metersPerSecond: Double
        /// Whether the vehicle has reached the end of the route.
        public var arrived: Bool
    }

    /// Plans the drive.
    public init(route: Route, style: DrivingStyle, stops: [SimulatedStop] = []) {
        self.route = route
        self.style = style
        self.stops = stops.map { SimulatedStop(meters: min(max(0, $0.meters), route.totalMeters), seconds: max(0, $0.seconds)) }
            .sorted { $0.meters < $1.meters }
        build()
    }

    /// How long the whole drive takes, stops included, seconds.
    public var totalSeconds: Double { seconds[seconds.count - 1] }

    /// The vehicle's place and speed `time` seconds after the start (clamped to the drive).
    public func position(atSeconds time: Double) -> State {
        if time <= 0 { return State(meters: 0, metersPerSecond: 0, arrived: route.totalMeters == 0) }
        if time >= totalSeconds { return State(meters: route.totalMeters, metersPerSecond: 0, arrived: true) }
        var low = 0
        var high = seconds.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if seconds[middle] <= time { low = middle } else { high = middle }
        }
        let span = seconds[high] - seconds[low]
        let fraction = span > 0 ? (time - seconds[low]) / span : 1
        // Within a step speed changes linearly in time, so distance is the trapezoid up to `time`.
        let v0 = speeds[low]
        let v1 = speeds[high]
        let vNow = v0 + (v1 - v0) * fraction
        let travelled = meters[low] + (v0 + vNow) / 2 * (time - seconds[low])
        let along = span > 0 && meters[high] > meters[low] ? min(meters[high], travelled) : meters[low]
        return State(meters: along, metersPerSecond: vNow, arrived: false)
    }

    // MARK: Planning

    private mutating func build() {
        // Key points: every vertex with its turn speed, every stop at 0, the start and the end at 0.
        var keys: [(meters: Double, limit: Double, dwell: Double)] = []
        let points = route.points
        for index in points.indices {
            var limit = style.cruiseMetersPerSecond
            if index > 0, index < points.count - 1 {
                limit = style.turnSpeed(degrees: turnDegrees(at: index))
            }
            if index == 0 || index == points.count - 1 { limit = 0 }
            keys.append((route.cumulativeMeters[index], limit, 0))
        }
        for stop in stops { keys.append((stop.meters, 0, stop.seconds)) }
        keys.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.limit < $1.limit }
        // Merge keys at the same place: the lowest limit, the summed waits.
        var merged: [(meters: Double, limit: Double, dwell: Double)] = []
        for key in keys {
            if let last = merged.last, abs(last.meters - key.meters) < 0.01 {
                merged[merged.count - 1] = (last.meters, min(last.limit, key.limit), last.dwell + key.dwell)
            } else {
                merged.append(key)
            }
        }
        var v = merged.map(\.limit)
        let a = style.acceleration
        let b = style.deceleration
        if v.count > 1 {
            for i in 1..<v.count {
                let d = merged[i].meters - merged[i - 1].meters
                v[i] = min(v[i], (v[i - 1] * v[i - 1] + 2 * a * d).squareRoot())
            }
            for i in stride(from: v.count - 2, through: 0, by: -1) {
                let d = merged[i + 1].meters - merged[i].meters
                v[i] = min(v[i], (v[i + 1] * v[i + 1] + 2 * b * d).squareRoot())
            }
        }
        meters = [0]
        seconds = [0]
        speeds = [0]
        var clock = 0.0
        if let first = merged.first, first.dwell > 0 {
            clock += first.dwell
            append(meters: 0, seconds: clock, speed: 0)
        }
        guard merged.count > 1 else { return }
        for i in 1..<merged.count {
            let start = merged[i - 1].meters
            let length = merged[i].meters - start
            let steps = max(1, Int((length / 5).rounded(.up)))
            var previousSpeed = v[i - 1]
            for step in 1...steps {
                let x = length * Double(step) / Double(steps)
                let speed = min(style.cruiseMetersPerSecond,
                                (v[i - 1] * v[i - 1] + 2 * a * x).squareRoot(),
                                (v[i] * v[i] + 2 * b * max(0, length - x)).squareRoot())
                let dx = length / Double(steps)
                let total = previousSpeed + speed
                clock += total > 0 ? 2 * dx / total : 0
                append(meters: start + x, seconds: clock, speed: speed)
                previousSpeed = speed
            }
            if merged[i].dwell > 0 {
                clock += merged[i].dwell
                append(meters: merged[i].meters, seconds: clock, speed: 0)
            }
        }
    }

    private mutating func append(meters value: Double, seconds time: Double, speed: Double) {
        meters.append(value)
        seconds.append(time)
        speeds.append(speed)
    }

    /// The change of direction at vertex `index`, degrees (0 straight on, 180 back the same way).
    private func turnDegrees(at index: Int) -> Double {
        let points = route.points
        var before = index - 1
        while before > 0, Geodesy.distance(points[before], points[index]) < 0.5 { before -= 1 }
        var after = index + 1
        while after < points.count - 1, Geodesy.distance(points[index], points[after]) < 0.5 { after += 1 }
        guard Geodesy.distance(points[before], points[index]) >= 0.5, Geodesy.distance(points[index], points[after]) >= 0.5 else {
            return 0
        }
        let incoming = Geodesy.initialBearing(points[before], points[index])
        let outgoing = Geodesy.initialBearing(points[index], points[after])
        var change = abs(outgoing - incoming).truncatingRemainder(dividingBy: 360)
        if change > 180 { change = 360 - change }
        return change
    }
}
