import FleetModel
import FleetConcurrency

/// The `simulate:` source: a vehicle driving a route, one sample every `stepSeconds` of feed time (1 s,
/// like a GPS receiver), ending with a sample at the route's end when the drive arrives.
public struct SimulatedFeed: LocationFeed {
    /// What is simulated, for logs.
    public let description: String
    /// The drive.
    public let simulator: DriveSimulator
    /// Seconds of feed time between samples.
    public let stepSeconds: Double

    /// A simulated drive.
    public init(description: String, simulator: DriveSimulator, stepSeconds: Double = 1) {
        precondition(stepSeconds > 0, "a simulation needs a positive step")
        self.description = description
        self.simulator = simulator
        self.stepSeconds = stepSeconds
    }

    /// Runs the feed on the calling thread until its input ends or it is cancelled.
    public func run(into sink: any LocationSink, time: any TimeSource, cancellation: Cancellation) -> FeedEnd {
        let start = time.now()
        let startTimestamp = Timestamp(timeIntervalSince1970: start)
        let total = simulator.totalSeconds
        sink.feedEvent(.replaying(samples: Int((total / stepSeconds).rounded(.up)) + 1, seconds: total))
        var elapsed = 0.0
        while true {
            while !cancellation.isCancelled, time.now() < start + elapsed {
                _ = time.wait(until: start + elapsed, wakeup: cancellation.wakeup)
            }
            if cancellation.isCancelled { return .cancelled }
            sink.receive(simulator.sample(atSeconds: elapsed, start: startTimestamp))
            if elapsed >= total { return .finished }
            elapsed = min(total, elapsed + stepSeconds)
        }
    }
}
