import FleetGeo

/// A range of real remaining time, for showing how the error changes as the destination nears.
public struct RemainingBand: Sendable, Hashable {
    /// How the band is printed (`2–5 min`).
    public var name: String
    /// Lower bound in seconds, exclusive (a point exactly 120 s out is in the band below).
    public var aboveSeconds: Double
    /// Upper bound in seconds, inclusive.
    public var uptoSeconds: Double

    /// Creates a band.
    public init(name: String, aboveSeconds: Double, uptoSeconds: Double) {
        self.name = name
        self.aboveSeconds = aboveSeconds
        self.uptoSeconds = uptoSeconds
    }

    /// Whether `seconds` of real remaining time fall in the band.
    public func contains(_ seconds: Double) -> Bool { seconds > aboveSeconds && seconds <= uptoSeconds }

    /// < 2 min, 2–5, 5–10, 10–20, > 20 min: a rider looks at the ETA most in the last minutes, and a pickup is
    /// rarely more than twenty minutes away.
    public static let standard: [RemainingBand] = [
        RemainingBand(name: "< 2 min", aboveSeconds: 0, uptoSeconds: 120),
        RemainingBand(name: "2–5 min", aboveSeconds: 120, uptoSeconds: 300),
        RemainingBand(name: "5–10 min", aboveSeconds: 300, uptoSeconds: 600),
        RemainingBand(name: "10–20 min", aboveSeconds: 600, uptoSeconds: 1200),
        RemainingBand(name: "> 20 min", aboveSeconds: 1200, uptoSeconds: .infinity),
    ]

    /// Every point more than two minutes out: the headline figure. Below that a few seconds are a large
    /// percentage and a rider reads "arriving" rather than a time.
    public static let beyondTwoMinutes = RemainingBand(name: "> 2 min", aboveSeconds: 120, uptoSeconds: .infinity)
}

/// Median and 90th percentile of the absolute ETA error, as a percentage of the real remaining time.
public struct ErrorFigures: Sendable, Hashable {
    /// How many predictions the figures summarise.
    public var count: Int
    /// Median absolute error, percent; nil without predictions.
    public var medianPercent: Double?
    /// 90th-percentile absolute error, percent; nil without predictions.
    public var p90Percent: Double?

    /// The figures of `errors` (absolute errors in percent, any order).
    public init(errors: [Double]) {
        let sorted = errors.sorted()
        count = sorted.count
        medianPercent = Self.percentile(sorted, 0.5)
        p90Percent = Self.percentile(sorted, 0.9)
    }

    /// The `fraction` percentile of sorted values, interpolated linearly between ranks; nil when empty.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = fraction * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (rank - Double(low)) * (sorted[high] - sorted[low])
    }
}

/// One way of predicting the remaining time, judged over a set of replayed drives.
public enum Predictor: String, Sendable, Hashable, CaseIterable {
    /// With history: the route ahead timed with the fleet's learned travel times (``ReplayPoint/learnedSeconds``).
    case learned
    /// With history, a baseline: the median time of the history drives nearest in time of day (``PlainHistory``).
    case plainHistory
    /// The engine's estimator along the route, without history.
    case estimator
    /// The engine's estimate without a route: straight line times the detour factor.
    case straightLine
    /// The route at the category's default speed.
    case defaultSpeed
    /// Not a live predictor: the route at the drive's own average speed, known only in hindsight
    /// (``ReplayPoint/hindsightSeconds``). The error left to it bounds what any one speed per drive can reach.
    case hindsight
    /// Not a live predictor, with history: the learned estimate knowing the waits this drive still had ahead
    /// (``ReplayPoint/learnedWaitsKnownSeconds``). The error left to it is the learned moving times'.
    case learnedWaitsKnown

    /// How reports name it.
    public var title: String {
        switch self {
        case .learned: "route, learned times (engine)"
        case .plainHistory: "plain history (3 nearest drives)"
        case .estimator: "route, observed speed (no history)"
        case .straightLine: "straight line (no route)"
        case .defaultSpeed: "route, default speed"
        case .hindsight: "route, drive's average (hindsight)"
        case .learnedWaitsKnown: "learned, waits ahead known (bound)"
        }
    }

    /// Its prediction at a replayed point; nil where it has none (no history given, or none covering the way).
    public func seconds(at point: ReplayPoint) -> Double? {
        switch self {
        case .learned: point.learnedSeconds
        case .plainHistory: point.plainHistorySeconds
        case .estimator: point.estimatedSeconds
        case .straightLine: point.straightLineSeconds
        case .defaultSpeed: point.defaultSpeedSeconds
        case .hindsight: point.hindsightSeconds
        case .learnedWaitsKnown: point.learnedWaitsKnownSeconds
        }
    }
}

/// The engine's error beyond two minutes over one kind of point (the first minutes watched, standing), with its
/// sign: where the error comes from.
public struct PhaseFigures: Sendable, Hashable {
    /// How reports name the kind of point (`watched < 3 min`).
    public var name: String
    /// Median and p90 of the absolute error.
    public var figures: ErrorFigures
    /// Median of the signed error, percent: negative when the estimate is too short (the vehicle arrives later
    /// than said), positive when too long; nil without points.
    public var medianSignedPercent: Double?

    /// The figures of signed errors in percent (predicted − actual over actual).
    public init(name: String, signedErrors: [Double]) {
        self.name = name
        figures = ErrorFigures(errors: signedErrors.map(abs))
        medianSignedPercent = ErrorFigures.percentile(signedErrors.sorted(), 0.5)
    }

    /// Seconds watched below which the estimate still leans on the category's default speed: 180 s, the
    /// estimator's trust time constant (``SpeedModel/trustTimeConstantSeconds``), when the observed speed weighs 63%.
    public static let earlySeconds = SpeedModel.standard.trustTimeConstantSeconds
}

/// How accurate each predictor was over a set of drives: overall, beyond two minutes, and per band.
public struct AccuracyReport: Sendable, Hashable {
    /// Drives that gave at least one prediction.
    public var drives: Int
    /// Per predictor: the figures beyond two minutes (the headline), over every point, and per band of
    /// ``RemainingBand/standard`` in order.
    public var beyondTwoMinutes: [Predictor: ErrorFigures]
    public var overall: [Predictor: ErrorFigures]
    public var byBand: [Predictor: [ErrorFigures]]
    /// The bands of ``byBand``.
    public let bands: [RemainingBand]
    /// The predictors that gave predictions, in ``Predictor`` order (the history ones only with history).
    public var predictors: [Predictor]
    /// The predictor the headline figures are of: the learned estimate when history was given, else the engine's
    /// estimator without history.
    public var headline: Predictor
    /// The headline predictor's error beyond two minutes split by what the vehicle was doing: watched for under
    /// three minutes (the default speed still weighs) or longer, and standing or moving since the previous fix.
    public var phases: [PhaseFigures]
    /// Per predictor, the ETA Accuracy Benchmark's windows over every point (``ETAAccuracyScore``).
    public var benchmarkScores: [Predictor: ETAAccuracyScore]
    /// The replayed points judged, one array per drive.
    public let replays: [[ReplayPoint]]

    /// Judges replayed drives: each element is one drive's points.
    public init(replays: [[ReplayPoint]], bands: [RemainingBand] = RemainingBand.standard) {
        self.bands = bands
        self.replays = replays
        drives = replays.filter { !$0.isEmpty }.count
        let points = replays.joined().filter { $0.actualSeconds > 0 }
        beyondTwoMinutes = [:]
        overall = [:]
        byBand = [:]
        benchmarkScores = [:]
        predictors = Predictor.allCases.filter { predictor in points.contains { predictor.seconds(at: $0) != nil } }
        for predictor in predictors {
            let errors = points.compactMap { point in
                predictor.seconds(at: point).map { (actual: point.actualSeconds, error: Self.errorPercent($0, actual: point.actualSeconds)) }
            }
            overall[predictor] = ErrorFigures(errors: errors.map(\.error))
            beyondTwoMinutes[predictor] = ErrorFigures(errors: errors.filter { RemainingBand.beyondTwoMinutes.contains($0.actual) }.map(\.error))
            byBand[predictor] = bands.map { band in ErrorFigures(errors: errors.filter { band.contains($0.actual) }.map(\.error)) }
            benchmarkScores[predictor] = ETAAccuracyScore(points.compactMap { point in
                predictor.seconds(at: point).map { (predicted: $0, actual: point.actualSeconds) }
            })
        }
        let headline: Predictor = predictors.contains(.learned) ? .learned : .estimator
        self.headline = headline
        let beyond = points.filter { RemainingBand.beyondTwoMinutes.contains($0.actualSeconds) }
        func phase(_ name: String, _ included: (ReplayPoint) -> Bool) -> PhaseFigures {
            PhaseFigures(name: name, signedErrors: beyond.filter(included).compactMap { point in
                headline.seconds(at: point).map { ($0 - point.actualSeconds) / point.actualSeconds * 100 }
            })
        }
        let early = PhaseFigures.earlySeconds
        phases = [
            phase("watched < \(Int(early / 60)) min") { $0.watchedSeconds < early },
            phase("watched ≥ \(Int(early / 60)) min") { $0.watchedSeconds >= early },
            phase("standing") { $0.isStanding },
            phase("moving") { !$0.isStanding },
        ]
    }

    /// |predicted − actual| / actual, percent.
    public static func errorPercent(_ predicted: Double, actual: Double) -> Double {
        abs(predicted - actual) / actual * 100
    }
}

/// The ETA Accuracy Benchmark's score (TransitApp's published method): a prediction shown as so many minutes away
/// counts as accurate when the vehicle arrives no more than a little earlier and a little more later than said, the
/// windows widening with the time shown: 0–3 min 30 s early / 90 s late, 3–6 min 1 / 2.5 min, 6–10 min 1 / 3.5 min,
/// 10–15 min 1.5 / 4.5 min. The score is each window's share of accurate predictions, and their mean.
public struct ETAAccuracyScore: Sendable, Hashable {
    /// One window of the benchmark.
    public struct Window: Sendable, Hashable {
        /// `0–3 min`.
        public var name: String
        /// Predictions above this and up to `uptoSeconds` fall in the window, seconds.
        public var aboveSeconds: Double
        public var uptoSeconds: Double
        /// How much earlier, and later, than predicted the vehicle may arrive, seconds.
        public var earlySeconds: Double
        public var lateSeconds: Double
    }

    /// The benchmark's four windows.
    public static let windows = [
        Window(name: "0–3 min", aboveSeconds: 0, uptoSeconds: 180, earlySeconds: 30, lateSeconds: 90),
        Window(name: "3–6 min", aboveSeconds: 180, uptoSeconds: 360, earlySeconds: 60, lateSeconds: 150),
        Window(name: "6–10 min", aboveSeconds: 360, uptoSeconds: 600, earlySeconds: 60, lateSeconds: 210),
        Window(name: "10–15 min", aboveSeconds: 600, uptoSeconds: 900, earlySeconds: 90, lateSeconds: 270),
    ]

    /// Per window, the share of its predictions that were accurate, percent (nil for a window without predictions).
    public var windowPercents: [Double?]
    /// Per window, how many predictions fell in it.
    public var windowCounts: [Int]
    /// The mean of the windows' shares that have predictions, percent.
    public var meanPercent: Double?

    /// Scores predictions against what happened (seconds).
    public init(_ predictions: [(predicted: Double, actual: Double)]) {
        var percents: [Double?] = []
        var counts: [Int] = []
        for window in Self.windows {
            let inside = predictions.filter { $0.predicted > window.aboveSeconds && $0.predicted <= window.uptoSeconds }
            let accurate = inside.filter {
                $0.actual >= $0.predicted - window.earlySeconds && $0.actual <= $0.predicted + window.lateSeconds
            }
            counts.append(inside.count)
            percents.append(inside.isEmpty ? nil : Double(accurate.count) / Double(inside.count) * 100)
        }
        windowPercents = percents
        windowCounts = counts
        let present = percents.compactMap { $0 }
        meanPercent = present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }
}
