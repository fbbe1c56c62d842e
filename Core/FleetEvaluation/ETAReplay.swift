import FleetGeo
import FleetLearning

/// The predictions made at one reported position of a replayed drive, beside the truth.
public struct ReplayPoint: Sendable, Hashable {
    /// Seconds the vehicle really still drove to the destination from here.
    public var actualSeconds: Double
    /// What the engine's estimator predicted: along the route, at the observed speed (``ETAEstimator``).
    public var estimatedSeconds: Double
    /// Baseline: the engine's answer without a route (straight line times the detour factor, observed speed).
    public var straightLineSeconds: Double
    /// Baseline: the distance left along the route at the category's default speed.
    public var defaultSpeedSeconds: Double
    /// Hindsight bound, not a live estimate: the distance left along the route at the drive's own average speed
    /// over the whole route, stops included, which only the finished drive knows. What is left of its error is
    /// the speed changing along the way (where the waits fall, town then suburbs), which no single speed predicts.
    public var hindsightSeconds: Double
    /// Seconds since the drive's first fix: how long the estimator has watched the vehicle.
    public var watchedSeconds: Double
    /// Whether the vehicle averaged under 1 m/s since the previous fix (standing at a stop, a light, in a queue).
    public var isStanding: Bool
    /// With history: the learned estimate, the route ahead timed with the fleet's learned travel times
    /// (``LearnedRoute``), blended with the live pace just ahead.
    public var learnedSeconds: Double?
    /// With history: the plain history baseline (``PlainHistory``); nil where no history drive covers the way.
    public var plainHistorySeconds: Double?
    /// With history, a bound and not a live estimate: the learned estimate with its share of the waits ahead (each
    /// piece's learned standing seconds per metre, along the route still ahead) replaced by the time this drive
    /// really stood from here on (intervals averaging under 1 m/s). What a perfect model of the waits ahead would
    /// reach, the learned moving times kept.
    public var learnedWaitsKnownSeconds: Double?
    /// With history: the learned time over the path driven so far, each step timed at the quarter hour it was
    /// driven (the vehicle's live pace where nothing is learned); `watchedSeconds` minus it is how late the
    /// vehicle runs against what was learned.
    public var learnedDrivenSeconds: Double?
    /// With history: the learned waits on the route ahead (each piece's all-week standing seconds per metre).
    public var learnedWaitsAheadSeconds: Double?
    /// Seconds the drive stood so far (intervals averaging under 1 m/s).
    public var stoodSeconds: Double = 0
    /// Metres along the route driven so far, and the route's length.
    public var travelledMeters: Double = 0
    public var routeMeters: Double = 0

    /// Creates a point.
    public init(actualSeconds: Double, estimatedSeconds: Double, straightLineSeconds: Double, defaultSpeedSeconds: Double,
                hindsightSeconds: Double = 0, watchedSeconds: Double = 0, isStanding: Bool = false,
                learnedSeconds: Double? = nil, plainHistorySeconds: Double? = nil, learnedWaitsKnownSeconds: Double? = nil,
                learnedDrivenSeconds: Double? = nil, learnedWaitsAheadSeconds: Double? = nil, stoodSeconds: Double = 0,
                travelledMeters: Double = 0, routeMeters: Double = 0) {
        self.actualSeconds = actualSeconds
        self.estimatedSeconds = estimatedSeconds
        self.straightLineSeconds = straightLineSeconds
        self.defaultSpeedSeconds = defaultSpeedSeconds
        self.hindsightSeconds = hindsightSeconds
        self.watchedSeconds = watchedSeconds
        self.isStanding = isStanding
        self.learnedSeconds = learnedSeconds
        self.plainHistorySeconds = plainHistorySeconds
        self.learnedWaitsKnownSeconds = learnedWaitsKnownSeconds
        self.learnedDrivenSeconds = learnedDrivenSeconds
        self.learnedWaitsAheadSeconds = learnedWaitsAheadSeconds
        self.stoodSeconds = stoodSeconds
        self.travelledMeters = travelledMeters
        self.routeMeters = routeMeters
    }
}

/// Replays a recorded drive through the engine's ETA estimator, as if the drive were a trip to its last position
/// and each fix a location update: at every fix it asks the estimator for the time left and sets it beside the time
/// the vehicle really took.
///
/// Each update is handled as the engine handles it (`refreshProgress`): the route progress resumes from the
/// distance travelled so far, the observed speed is fed the position, then the estimator answers for the trip's one
/// waypoint. The route is a parameter: the drive's own path (what the driver's navigation knew), or one a router
/// planned from the first position to the last.
public struct ETAReplay: Sendable {
    /// The vehicle category, for the default speed.
    public var category: VehicleCategory
    /// The model's constants.
    public var model: SpeedModel
    /// What the fleet learned from other drives, for the learned estimate and the plain history baseline; nil
    /// replays without history.
    public var history: ReplayHistory?

    /// A replay with the engine's standard model.
    public init(category: VehicleCategory = .auto, model: SpeedModel = .standard, history: ReplayHistory? = nil) {
        self.category = category
        self.model = model
        self.history = history
    }

    /// The predictions at every fix of `drive` but the last, following `route` (nil: the drive's own path). A drive
    /// of fewer than two fixes, or with no time between its first and last, gives none.
    public func replay(_ drive: Drive, along route: [GeoPoint]? = nil) -> [ReplayPoint] {
        guard drive.fixes.count >= 2, let last = drive.fixes.last, last.time > drive.fixes[0].time,
              let route = Route(points: route ?? drive.path) else { return [] }
        let waypoints = RouteWaypoints(route: route, positions: [last.position])
        let defaultSpeed = model.defaultMetersPerSecond(for: category)
        var estimator = ETAEstimator(category: category, model: model)
        var withoutRoute = ETAEstimator(category: category, model: model)
        // The drive's average speed along this route, stops included: known only once the drive is over.
        let hindsightSpeed = route.totalMeters / (last.time - drive.fixes[0].time)
        let learnedRoute = history.map { _ in LearnedRoute(route: route) }
        let destinationMeters = waypoints.waypoints[0].alongRouteMeters ?? route.totalMeters
        var timing: LearnedTiming? = nil
        let learnedWaits = history.flatMap { history in learnedRoute.map { WaitsAhead(route: $0, times: history.times) } }
        // Seconds the drive stood after each fix: intervals averaging under the standing speed, summed from the end.
        var stoodAfter = [Double](repeating: 0, count: drive.fixes.count)
        for index in stride(from: drive.fixes.count - 2, through: 0, by: -1) {
            let (from, to) = (drive.fixes[index], drive.fixes[index + 1])
            stoodAfter[index] = stoodAfter[index + 1] + (Drive.stands(from: from, to: to) ? to.time - from.time : 0)
        }
        var travelled = 0.0
        var learnedDriven = 0.0
        var drivenTiming: LearnedTiming? = nil
        var stood = 0.0
        var previous: Fix? = nil
        var points: [ReplayPoint] = []
        points.reserveCapacity(drive.fixes.count - 1)
        for (index, fix) in drive.fixes.dropLast().enumerated() {
            defer { previous = fix }
            let isStanding = previous.map { Drive.stands(from: $0, to: fix) } ?? false
            if isStanding, let previous { stood += fix.time - previous.time }
            let travelledBefore = travelled
            var progress = RouteProgress(route: route, resumingAtMeters: travelled)
            let match = progress.update(fix.position)
            travelled = match.travelledMeters
            estimator.observe(position: fix.position, at: fix.time)
            withoutRoute.observe(position: fix.position, at: fix.time)
            let estimated = estimator.estimate(from: match, waypoints: waypoints, now: fix.time)
            let straight = withoutRoute.estimateWithoutRoute(from: fix.position, to: [last.position], now: fix.time)
            let remainingMeters = waypoints.remainingMeters(afterTravelling: match.travelledMeters,
                                                            detourFactor: model.detourFactor)[0]
            var learned: Double? = nil
            var plain: Double? = nil
            var waitsKnown: Double? = nil
            if let history, let learnedRoute, let learnedWaits {
                let livePace = 1 / estimator.freeFlowMetersPerSecond(now: fix.time)
                learned = learnedRoute.seconds(from: match.travelledMeters, to: [destinationMeters], now: fix.time,
                                               times: history.times, generation: 0, model: history.model,
                                               liveSecondsPerMeter: livePace, fallbackSecondsPerMeter: livePace,
                                               timing: &timing)[0]
                plain = history.plain.seconds(from: fix.position, at: fix.time, to: last.position)
                waitsKnown = learned.map { $0 - learnedWaits.seconds(fromMeters: match.travelledMeters) + stoodAfter[index] }
                if let previous, match.travelledMeters > travelledBefore {
                    learnedDriven += learnedRoute.seconds(from: travelledBefore, to: [match.travelledMeters], now: previous.time,
                                                          times: history.times, generation: 0, model: history.model,
                                                          liveSecondsPerMeter: nil, fallbackSecondsPerMeter: livePace,
                                                          timing: &drivenTiming)[0]
                }
            }
            points.append(ReplayPoint(actualSeconds: last.time - fix.time,
                                      estimatedSeconds: estimated.first?.remainingSeconds ?? 0,
                                      straightLineSeconds: straight[0].remainingSeconds,
                                      defaultSpeedSeconds: remainingMeters / defaultSpeed,
                                      hindsightSeconds: remainingMeters / hindsightSpeed,
                                      watchedSeconds: fix.time - drive.fixes[0].time, isStanding: isStanding,
                                      learnedSeconds: learned, plainHistorySeconds: plain,
                                      learnedWaitsKnownSeconds: waitsKnown,
                                      learnedDrivenSeconds: history == nil ? nil : learnedDriven,
                                      learnedWaitsAheadSeconds: learnedWaits?.seconds(fromMeters: match.travelledMeters),
                                      stoodSeconds: stood, travelledMeters: match.travelledMeters, routeMeters: route.totalMeters))
        }
        return points
    }
}

/// The waits a route's learned times hold from any point on: per stretch, its length times its piece's learned
/// standing seconds per metre over the whole week (``RoadTimes/entry(near:)``), summed from the route's end.
struct WaitsAhead {
    let route: LearnedRoute
    /// Learned wait seconds from each stretch's start to the route's end; one more entry, 0, for the end.
    let fromStart: [Double]

    init(route: LearnedRoute, times: RoadTimes) {
        self.route = route
        var sums = [Double](repeating: 0, count: route.stretches.count + 1)
        for (index, stretch) in route.stretches.enumerated().reversed() {
            var waits = 0.0
            if let total = times.entry(near: stretch.piece)?.total, total.meters > 0 {
                waits = total.waitSeconds / total.meters * (stretch.endMeters - stretch.startMeters)
            }
            sums[index] = sums[index + 1] + waits
        }
        fromStart = sums
    }

    /// Learned wait seconds from `meters` along the route to its end (a stretch begun counts for its share left).
    func seconds(fromMeters meters: Double) -> Double {
        guard !route.stretches.isEmpty else { return 0 }
        let index = route.stretchIndex(atMeters: meters)
        let stretch = route.stretches[index]
        let length = stretch.endMeters - stretch.startMeters
        let left = length > 0 ? min(1, max(0, (stretch.endMeters - meters) / length)) : 0
        return fromStart[index + 1] + left * (fromStart[index] - fromStart[index + 1])
    }
}

/// What a replay knows of the fleet's past: the travel times learned from history drives, and those drives
/// themselves for the plain history baseline.
public struct ReplayHistory: Sendable {
    /// The learned travel times and waits.
    public var times: RoadTimes
    /// The plain history baseline over the same drives.
    public var plain: PlainHistory
    /// How learned times are blended with the live pace.
    public var model: LearnedETAModel

    /// Learns from `drives` (cleaned as the evaluation cleans the drives it judges).
    public init(learningFrom drives: [Drive], model: LearnedETAModel = LearnedETAModel(), plainNearest: Int = 3) {
        var times = RoadTimes()
        let learner = DriveLearner(utcOffsetSeconds: model.utcOffsetSeconds)
        for drive in drives { learner.learn(drive.fixes, into: &times) }
        self.times = times
        self.plain = PlainHistory(drives: drives, nearest: plainNearest)
        self.model = model
    }
}
