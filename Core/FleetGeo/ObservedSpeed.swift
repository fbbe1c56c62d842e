#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A vehicle's recent speed in free-flowing traffic: an exponentially weighted moving average over time of its
/// speed samples, from reported speeds or from successive positions.
///
/// Each sample weighs `1 − exp(−Δt/τ)`, Δt being the time the sample covers, so irregular reporting intervals are
/// handled and the average forgets with time constant τ. The average starts from nothing and is bias-corrected
/// (divided by the total weight so far), so the first minutes are the plain time-weighted mean of what was seen
/// instead of being stuck on the first sample (a vehicle pulling away from the kerb). Samples taken where traffic is
/// SLOW or TRAFFIC_JAM are not averaged in: those stretches get their own speed, and the average stays the speed the
/// vehicle will have once it is through. Times are seconds on any clock the caller chooses (epoch seconds in the
/// engine).
public struct ObservedSpeed: Sendable, Hashable {
    /// When the last sample (averaged in or skipped) was taken.
    public private(set) var lastSampleTime: Double?
    /// Total time covered by the samples averaged in, seconds: how long the vehicle has been watched.
    public private(set) var observedSeconds = 0.0
    /// The time constant τ in seconds.
    public let timeConstantSeconds: Double
    /// Position-derived speeds above this are dropped as GPS jumps.
    public let maximumPlausibleMetersPerSecond: Double

    /// The exponentially weighted sum, started at 0 (so not yet an average).
    private var weightedSum = 0.0
    /// The total weight the sum has had, 0...1; the average is `weightedSum / totalWeight`.
    private var totalWeight = 0.0
    /// The previous position and its time, for position-derived samples.
    private var lastPosition: GeoPoint?
    private var lastPositionTime: Double?

    /// An empty average with the model's time constant and plausibility limit.
    public init(model: SpeedModel = .standard) {
        timeConstantSeconds = model.smoothingTimeConstantSeconds
        maximumPlausibleMetersPerSecond = model.maximumPlausibleMetersPerSecond
    }

    /// The smoothed speed in metres per second; nil until a sample covering some time has been averaged in.
    public var metersPerSecond: Double? {
        totalWeight > 0 ? weightedSum / totalWeight : nil
    }

    /// Records a speed reported by the vehicle (e.g. `VehicleLocation.speed`) at `time`, in `traffic`. It stands for
    /// the time since the previous sample, so the first one only starts the clock.
    public mutating func record(metersPerSecond speed: Double, at time: Double, traffic: TrafficSpeed = .unspecified) {
        guard speed.isFinite, speed >= 0 else { return }
        let covered = lastSampleTime.map { max(0, time - $0) } ?? 0
        lastSampleTime = max(time, lastSampleTime ?? time)
        average(speed, covering: covered, traffic: traffic)
    }

    /// Records a position at `time`, in `traffic`; from the second position on, the straight-line speed since the
    /// previous one is a sample. Out-of-order or same-time positions are ignored.
    public mutating func record(position: GeoPoint, at time: Double, traffic: TrafficSpeed = .unspecified) {
        defer {
            if lastPositionTime.map({ time > $0 }) ?? true {
                lastPosition = position
                lastPositionTime = time
            }
        }
        guard let previous = lastPosition, let previousTime = lastPositionTime, time > previousTime else { return }
        let elapsed = time - previousTime
        let speed = Geodesy.distance(previous, position) / elapsed
        lastSampleTime = max(time, lastSampleTime ?? time)
        guard speed <= maximumPlausibleMetersPerSecond else { return }
        average(speed, covering: elapsed, traffic: traffic)
    }

    /// Folds one sample covering `covered` seconds into the average, unless taken in congestion.
    private mutating func average(_ speed: Double, covering covered: Double, traffic: TrafficSpeed) {
        guard traffic != .slow && traffic != .trafficJam, covered > 0 else { return }
        let weight = 1 - exp(-covered / timeConstantSeconds)
        weightedSum += weight * (speed - weightedSum)
        totalWeight += weight * (1 - totalWeight)
        observedSeconds += covered
    }
}

extension ObservedSpeed {
    /// Everything an `ObservedSpeed` has learnt, as plain numbers: a stateless server stores it with the
    /// vehicle and restores it on the next update.
    public struct Snapshot: Sendable, Hashable {
        public var weightedSum: Double
        public var totalWeight: Double
        public var observedSeconds: Double
        public var lastSampleTime: Double?
        public var lastPosition: GeoPoint?
        public var lastPositionTime: Double?

        public init(weightedSum: Double = 0, totalWeight: Double = 0, observedSeconds: Double = 0,
                    lastSampleTime: Double? = nil, lastPosition: GeoPoint? = nil, lastPositionTime: Double? = nil) {
            self.weightedSum = weightedSum
            self.totalWeight = totalWeight
            self.observedSeconds = observedSeconds
            self.lastSampleTime = lastSampleTime
            self.lastPosition = lastPosition
            self.lastPositionTime = lastPositionTime
        }
    }

    /// The state to store.
    public var snapshot: Snapshot {
        Snapshot(weightedSum: weightedSum, totalWeight: totalWeight, observedSeconds: observedSeconds,
                 lastSampleTime: lastSampleTime, lastPosition: lastPosition, lastPositionTime: lastPositionTime)
    }

    /// An average restored from a stored snapshot.
    public init(model: SpeedModel = .standard, snapshot: Snapshot) {
        self.init(model: model)
        weightedSum = snapshot.weightedSum
        totalWeight = snapshot.totalWeight
        observedSeconds = snapshot.observedSeconds
        lastSampleTime = snapshot.lastSampleTime
        lastPosition = snapshot.lastPosition
        lastPositionTime = snapshot.lastPositionTime
    }
}
