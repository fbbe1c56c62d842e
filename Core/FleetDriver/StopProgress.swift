import FleetGeo
import FleetModel

/// How long a delivery vehicle stays at an ARRIVED stop before the stop counts as served (`--dwell`).
public enum DwellRule: Sendable, Hashable {
    /// As long as the stop's tasks take: the sum of their `taskDuration` in the vehicle's stop list,
    /// or `fallbackSeconds` when none is given.
    case taskDurations(fallbackSeconds: Double)
    /// A fixed time, seconds.
    case fixed(seconds: Double)
    /// Only when the driver says so (`VehicleReporter.completeStop()`, SIGUSR2).
    case manual

    /// The dwell when `--dwell` is not given: the tasks' durations, one minute without them.
    public static let standard = DwellRule.taskDurations(fallbackSeconds: 60)

    /// Seconds to stay at `stop`, or nil when only the driver ends the stay.
    public func seconds(at stop: VehicleStop) -> Double? {
        switch self {
        case .taskDurations(let fallback):
            let durations = stop.tasks.compactMap(\.taskDuration)
            return durations.isEmpty ? fallback : durations.reduce(0) { $0 + max(0, $1.timeInterval) }
        case .fixed(let seconds):
            return seconds
        case .manual:
            return nil
        }
    }
}

/// The settings of a delivery vehicle's stop reporting.
public struct StopPolicy: Sendable, Hashable {
    /// A vehicle this close to its next stop has ARRIVED there, metres (`--arrival-radius`).
    public var arrivalRadiusMeters: Double
    /// How long it stays at an ARRIVED stop before the stop is served (`--dwell`).
    public var dwell: DwellRule
    /// How far the vehicle must move from where it stood when a stop became its next one before it
    /// counts as having set off towards it (ENROUTE), metres: more than a parked receiver drifts.
    public var departureMeters: Double

    /// The default arrival radius: 50 m, where Google's navigation status says ARRIVED_AT_DESTINATION.
    public static let defaultArrivalRadiusMeters = 50.0

    /// A policy; every setting has a default.
    public init(arrivalRadiusMeters: Double = Self.defaultArrivalRadiusMeters, dwell: DwellRule = .standard,
                departureMeters: Double = 25) {
        self.arrivalRadiusMeters = arrivalRadiusMeters
        self.dwell = dwell
        self.departureMeters = departureMeters
    }
}

/// What the driver app reports about the next stop, as the Driver SDK's `DeliveryVehicleReporter` does:
/// `reportEnrouteToNextStop`, `reportArrivedAtStop`, `reportCompletedStop`.
public enum StopTransition: String, Sendable, Hashable, CaseIterable {
    /// The vehicle set off towards the stop: its state becomes ENROUTE.
    case enroute
    /// The vehicle is at the stop: its state becomes ARRIVED.
    case arrived
    /// The stop was served and the vehicle departs: the stop is removed from the vehicle's list (which
    /// closes its tasks in Fleet Engine).
    case completed
}

/// One transition of one stop: the stop as the reporter knew it when it decided, and what happens to it.
public struct StopChange: Sendable, Hashable {
    /// What happens.
    public var transition: StopTransition
    /// The stop (the first of the vehicle's list) as it was when the change was decided.
    public var stop: VehicleStop

    /// A change.
    public init(_ transition: StopTransition, of stop: VehicleStop) {
        self.transition = transition
        self.stop = stop
    }

    /// The IDs of the stop's tasks, for logs.
    public var taskIDs: [String] { stop.tasks.compactMap(\.taskId) }
}

/// A stop told apart from the others by where it is and which tasks it serves; its state, and what
/// Fleet Engine adds to it (distances, durations, paths), do not change which stop it is.
struct StopIdentity: Sendable, Hashable {
    var latitude: Double?
    var longitude: Double?
    var taskIDs: [String]

    init(_ stop: VehicleStop) {
        latitude = stop.plannedLocation?.point?.latitude
        longitude = stop.plannedLocation?.point?.longitude
        taskIDs = stop.tasks.compactMap(\.taskId)
    }
}

/// A delivery vehicle's progress along its stops, decided from where the vehicle is, as a driver app
/// with the Driver SDK reports it:
///
/// - its next stop (the first of `remainingVehicleJourneySegments`) becomes ENROUTE when the vehicle
///   sets off towards it: once it has moved `departureMeters` from where it stood when that stop became
///   its next one;
/// - ARRIVED when the vehicle is within `arrivalRadiusMeters` of the stop's planned location (from NEW
///   or ENROUTE);
/// - served after the dwell at an ARRIVED stop (`DwellRule`), or at once when the driver says so
///   (`requestCompletion`): then the stop is removed from the list, as the Driver SDK's
///   `reportCompletedStop` does and as Google documents stop completion.
///
/// Only the first stop is ever changed: the stops are never reordered, and no other stop is removed.
/// A value: `VehicleReporter` installs the stops it reads and writes, asks for the next change at each
/// new location, and applies it to a fresh read of the list (`applying(_:to:)`) so that a list the
/// provider changed meanwhile is never overwritten.
public struct StopProgress: Sendable {
    /// The settings.
    public let policy: StopPolicy
    /// The vehicle's stops as last read or written, in order.
    public private(set) var stops: [VehicleJourneySegment] = []

    /// Where the vehicle was when the current first stop became its next one.
    private var origin: (stop: StopIdentity, point: GeoPoint)?
    /// When the current first stop was first seen ARRIVED.
    private var arrival: (stop: StopIdentity, time: Double)?
    /// The stop the driver said is served.
    private var completion: StopIdentity?

    /// Progress with no stops yet.
    public init(policy: StopPolicy = StopPolicy()) {
        self.policy = policy
    }

    /// The next stop, if any.
    public var nextStop: VehicleStop? { stops.first?.stop }

    /// Installs the vehicle's stops as read or as a write answered them, at `now` (reporter time).
    public mutating func install(_ newStops: [VehicleJourneySegment], now: Double) {
        stops = newStops
        guard let first = nextStop else {
            origin = nil
            arrival = nil
            completion = nil
            return
        }
        let identity = StopIdentity(first)
        if origin?.stop != identity { origin = nil }
        if completion != identity { completion = nil }
        if first.state == .arrived {
            if arrival?.stop != identity { arrival = (identity, now) }
        } else {
            arrival = nil
        }
    }

    /// Marks the next stop served at the next decision, as the driver's "stop completed" does.
    /// Returns false, changing nothing, unless the next stop is ARRIVED.
    @discardableResult
    public mutating func requestCompletion() -> Bool {
        guard let first = nextStop, first.state == .arrived else { return false }
        completion = StopIdentity(first)
        return true
    }

    /// When the dwell at the next stop ends (reporter time), if it is ARRIVED with a dwell that ends
    /// by itself: a decision is due then even without a new location.
    public var dwellEnd: Double? {
        guard let first = nextStop, first.state == .arrived, let arrival,
              let seconds = policy.dwell.seconds(at: first) else { return nil }
        return arrival.time + seconds
    }

    /// The change the vehicle's position `here` at `now` calls for, if any; remembers where the vehicle
    /// stood when the stop became its next one.
    public mutating func nextChange(at here: GeoPoint, now: Double) -> StopChange? {
        guard let first = nextStop else { return nil }
        let identity = StopIdentity(first)
        if first.state == .arrived {
            if completion == identity { return StopChange(.completed, of: first) }
            if let end = dwellEnd, now >= end { return StopChange(.completed, of: first) }
            return nil
        }
        if let point = first.plannedLocation?.point,
           Geodesy.distance(here, GeoPoint(latitude: point.latitude, longitude: point.longitude)) <= policy.arrivalRadiusMeters {
            return StopChange(.arrived, of: first)
        }
        if first.state == .enroute { return nil }
        guard let origin, origin.stop == identity else {
            origin = (identity, here)
            return nil
        }
        return Geodesy.distance(here, origin.point) >= policy.departureMeters ? StopChange(.enroute, of: first) : nil
    }

    /// The stop list to write for `change`, made from `fresh` (the list just read from the engine): the
    /// first stop with its new state, or without it when served; every other stop as it is. Nil when the
    /// change no longer applies because the list changed meanwhile: its first stop is another one, or
    /// already has the new state (or, to be served, is no longer ARRIVED).
    ///
    /// The written stops carry only what a driver app sends: the planned location, the task IDs and
    /// the state (Fleet Engine computes the rest).
    public static func applying(_ change: StopChange, to fresh: [VehicleJourneySegment]) -> [VehicleJourneySegment]? {
        guard let first = fresh.first?.stop, StopIdentity(first) == StopIdentity(change.stop) else { return nil }
        var stops = fresh.map(Self.written)
        switch change.transition {
        case .enroute:
            guard first.state != .enroute, first.state != .arrived else { return nil }
            stops[0].stop?.state = .enroute
        case .arrived:
            guard first.state != .arrived else { return nil }
            stops[0].stop?.state = .arrived
        case .completed:
            guard first.state == .arrived else { return nil }
            stops.removeFirst()
        }
        return stops
    }

    /// A journey segment as a driver app writes it: the stop's planned location, task IDs and state.
    static func written(_ segment: VehicleJourneySegment) -> VehicleJourneySegment {
        guard let stop = segment.stop else { return VehicleJourneySegment() }
        return VehicleJourneySegment(stop: VehicleStop(
            plannedLocation: stop.plannedLocation.map { LocationInfo(point: $0.point) },
            tasks: stop.tasks.map { VehicleStop.TaskInfo(taskId: $0.taskId) },
            state: stop.state))
    }
}

extension VehicleJourneySegment {
    /// The stop's planned location, where a vehicle navigates to.
    var plannedPoint: GeoPoint? {
        stop?.plannedLocation?.point.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
    }
}
