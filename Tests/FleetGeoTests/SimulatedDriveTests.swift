import FleetGeo
import Testing
import FleetRandom

/// The ETA model against simulated drives it did not generate: the drives come from `SimulatedDrive`'s own
/// physics (acceleration, braking, turns, 20-odd traffic lights with their own cycles, a stop-and-go jam, slow
/// traffic), and the model only sees what a server sees: noisy fixes every 10 s, headings, and a traffic feed
/// that is not quite right. Twelve drives differ in light timings.
@Suite("Simulated drive")
struct SimulatedDriveTests {
    static let seeds = Array(1...12) as [UInt64]

    /// Pooled results of one scenario over the twelve drives.
    struct Pooled {
        /// Mean absolute error over all updates of all drives, per waypoint, seconds.
        var meanAbsoluteError: [Double]
        /// The worst single drive's drop-off MAE, seconds.
        var worstDropOff: Double
        /// Mean and standard deviation of the drop-off arrival times, seconds.
        var meanArrival: Double
        var arrivalSpread: Double
    }

    static func pooled(night: Bool, useTraffic: Bool = true, useObservations: Bool = true) throws -> Pooled {
        var errors = [0.0, 0.0]
        var counts = [0, 0]
        var worst = 0.0
        var arrivals: [Double] = []
        for seed in seeds {
            let report = SimulatedDrive(seed: seed, night: night)
                .run(useTraffic: useTraffic, useObservations: useObservations)
            try #require(report.arrivalSeconds.allSatisfy { $0.isFinite })
            arrivals.append(report.arrivalSeconds[1])
            for index in 0..<2 {
                errors[index] += report.meanAbsoluteError[index] * Double(report.updates[index])
                counts[index] += report.updates[index]
            }
            worst = max(worst, report.meanAbsoluteError[1])
        }
        let mean = arrivals.reduce(0, +) / Double(arrivals.count)
        let spread = (arrivals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(arrivals.count)).squareRoot()
        return Pooled(meanAbsoluteError: zip(errors, counts).map { $0 / Double($1) }, worstDropOff: worst,
                      meanArrival: mean, arrivalSpread: spread)
    }

    /// Daytime: lights red 35–55 % of their cycle, a 800 m stop-and-go jam on Van Ness, slow traffic on Lombard.
    ///
    /// Why these bounds:
    /// - Light phases are unknown to any model. Across the twelve light timings the same 7.6 km drive takes 17 to
    ///   20 minutes (σ ≈ 50 s, asserted ≥ 30 s so the reasoning holds): at the start of a trip no estimator blind to
    ///   light phases can do much better than σ, and the spread shrinks as lights are passed.
    /// - Before observations the model uses AUTO's 40 km/h default, while this downtown drive averages about
    ///   25 km/h with its stops: the first ETAs are off by 2–3 minutes until the observed average is trusted.
    /// - The traffic feed reports the jam 140 m shorter than it is; the drivers' jam (about 2.5 m/s) and slow speeds
    ///   (55 % of the street speed, lights on top) are not the model's constants; and the observed average taken
    ///   just before the jam includes its unreported start and whatever lights were red.
    /// Together these allow a pooled mean absolute error of 2σ ≈ 100 s on the drop-off (under 9 % of the mean trip
    /// time, inside the 10–15 % commercial ETA services aim for), 60 s on the intermediate stop (13 minutes in),
    /// and at most 180 s (15 %) on any single drive. A model that ignored the traffic feed would fail them: the same
    /// drives without it score 2.5 times worse, which is asserted too.
    @Test func daytimeArrivalsStayCloseToSimulatedArrivals() throws {
        let day = try Self.pooled(night: false)
        let blind = try Self.pooled(night: false, useTraffic: false)
        #expect(day.arrivalSpread >= 30, "light timings must matter; σ = \(day.arrivalSpread) s")
        #expect(day.meanAbsoluteError[0] < 60, "intermediate stop: pooled MAE \(day.meanAbsoluteError[0]) s")
        #expect(day.meanAbsoluteError[1] < 100,
                "drop-off: pooled MAE \(day.meanAbsoluteError[1]) s, σ of arrivals \(day.arrivalSpread) s")
        #expect(day.worstDropOff < 180, "worst drive: drop-off MAE \(day.worstDropOff) s")
        #expect(day.meanAbsoluteError[1] < 0.6 * blind.meanAbsoluteError[1],
                "traffic data must help: \(day.meanAbsoluteError[1]) s vs \(blind.meanAbsoluteError[1]) s without")
    }

    /// At night: the same route driven 35 % faster, lights red 15–30 % of the time, no congestion. The trip averages
    /// about 52 km/h, so AUTO's 40 km/h default alone overestimates it by 2–3 minutes at the start; the observed
    /// speed must correct that.
    ///
    /// Bounds: the trip lasts about 9 minutes and the trust in observations builds over 3 (the model's time constant),
    /// so the first third of the updates still lean on the default: a pooled error of 75 s (14 % of the trip) on the
    /// drop-off and 60 s on the intermediate stop, and observations must cut the error by at least a quarter compared
    /// with the default speed alone.
    @Test func nightArrivalsLearnTheVehiclesOwnSpeed() throws {
        let night = try Self.pooled(night: true)
        let defaultOnly = try Self.pooled(night: true, useObservations: false)
        #expect(night.meanAbsoluteError[0] < 60, "intermediate stop: pooled MAE \(night.meanAbsoluteError[0]) s")
        #expect(night.meanAbsoluteError[1] < 75, "drop-off: pooled MAE \(night.meanAbsoluteError[1]) s")
        #expect(night.meanAbsoluteError[1] < 0.75 * defaultOnly.meanAbsoluteError[1],
                "observed speed must help: \(night.meanAbsoluteError[1]) s vs \(defaultOnly.meanAbsoluteError[1]) s")
    }

    @Test func simulatedDriveFollowsTheRouteWithoutGettingLost() {
        // The matcher under realistic noise: 5 m GPS error and no heading, never off route, and never a full search.
        let drive = SimulatedDrive(seed: 1)
        var progress = RouteProgress(route: drive.route)
        var generator = SeededRandom(seed: 5)
        var fullSearches = 0
        for along in stride(from: 0.0, through: drive.route.totalMeters, by: 40) {
            let truth = drive.route.point(atMeters: along)
            let fix = Geodesy.destination(from: truth, bearing: Double.random(in: 0..<360, using: &generator),
                                          meters: abs(generator.gaussian(standardDeviation: 5)))
            let match = progress.update(fix)
            #expect(!match.isOffRoute)
            #expect(abs(match.travelledMeters - along) < 20, "at \(along) m")
            if match.usedFullSearch { fullSearches += 1 }
        }
        #expect(fullSearches == 0)
    }
}
