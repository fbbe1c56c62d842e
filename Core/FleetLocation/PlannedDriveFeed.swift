import FleetConcurrency
import FleetGeo
import FleetModel
import Synchronization

/// The `simulate:plan` source: a vehicle that drives whatever its navigation plans. Each leg handed to
/// `follow(_:)` (the route to the next waypoint or stop, as the reporter's navigator plans it) is driven
/// as `simulate:ROUTE` drives a route — from rest, at the style's speeds, braking for turns and to a halt
/// at its end — and at the end of a leg the vehicle stands still until the next leg comes (a delivery
/// stop's dwell, a pickup). One sample every `stepSeconds` of feed time, standing or driving, from
/// `start` on; the feed never ends by itself.
public final class PlannedDriveFeed: LocationFeed {
    /// What is simulated, for logs.
    public let description: String
    /// Where the vehicle stands before the first leg.
    public let start: GeoPoint
    /// How it drives.
    public let style: DrivingStyle
    /// Seconds of feed time between samples.
    public let stepSeconds: Double
    private let legs = Mutex<(version: Int, points: [GeoPoint])>((0, []))

    /// A vehicle standing at `start` until it is given a leg.
    public init(start: GeoPoint, style: DrivingStyle, stepSeconds: Double = 1) {
        precondition(stepSeconds > 0, "a simulation needs a positive step")
        self.start = start
        self.style = style
        self.stepSeconds = stepSeconds
        description = "simulated drive along the navigation plan from \(start.latitude),\(start.longitude)"
    }

    /// Drives `points` next, from where the vehicle is when the feed takes it (its next sample); replaces
    /// a leg being driven. Safe from any thread.
    public func follow(_ points: [GeoPoint]) {
        legs.withLock { $0 = ($0.version + 1, points) }
    }

    /// Runs the feed on the calling thread until it is cancelled.
    public func run(into sink: any LocationSink, time: any TimeSource, cancellation: Cancellation) -> FeedEnd {
        let begin = time.now()
        var elapsed = 0.0
        var takenVersion = 0
        var drive: (simulator: DriveSimulator, startedAt: Double)?
        var standing = LocationSample(point: start, speed: 0, horizontalAccuracy: 5, sensor: .customerSuppliedLocation)
        while true {
            while !cancellation.isCancelled, time.now() < begin + elapsed {
                _ = time.wait(until: begin + elapsed, wakeup: cancellation.wakeup)
            }
            if cancellation.isCancelled { return .cancelled }
            let leg = legs.withLock { $0 }
            if leg.version != takenVersion {
                takenVersion = leg.version
                if let route = Route(points: leg.points) { drive = (DriveSimulator(route: route, style: style), elapsed) }
            }
            let now = Timestamp(timeIntervalSince1970: begin + elapsed)
            if let current = drive, elapsed - current.startedAt < current.simulator.totalSeconds {
                let sample = current.simulator.sample(atSeconds: elapsed - current.startedAt, start: Timestamp(timeIntervalSince1970: begin + current.startedAt))
                standing = sample
                sink.receive(sample)
            } else {
                if let current = drive {
                    standing = current.simulator.sample(atSeconds: current.simulator.totalSeconds, start: Timestamp(timeIntervalSince1970: begin + current.startedAt))
                    drive = nil
                }
                standing.time = now
                standing.speed = 0
                sink.receive(standing)
            }
            elapsed += stepSeconds
        }
    }
}
