/// Every number the ETA model uses, in one place, with why it was chosen. ``ETAEstimator`` reads them from here;
/// change a copy to tune a deployment.
public struct SpeedModel: Sendable, Hashable {
    /// Speed on SLOW stretches as a fraction of the vehicle's free-flow speed: 0.5.
    ///
    /// Fleet Engine only says "slowdown detected, but no traffic jam formed". A fraction (not an absolute speed)
    /// because a slow motorway still moves faster than a slow side street; one half because traffic maps mark a road
    /// slow well below its usual speed but above a crawl, so halfway between free flow and a standstill.
    public var slowFractionOfFreeFlow = 0.5

    /// Speed on TRAFFIC_JAM stretches: 8 km/h, absolute (capped at the free-flow speed, so a jam never speeds up a
    /// bicycle or a pedestrian).
    ///
    /// Absolute because a queue moves in stop-and-go waves at walking-to-cycling pace whatever the road's limit;
    /// 8 km/h sits inside the 5–15 km/h range such queues average.
    public var trafficJamKilometersPerHour = 8.0

    /// Road distance over great-circle distance when no route is known, or from an off-route vehicle back to its
    /// next waypoint: 1.3.
    ///
    /// Road networks are circuitous: published circuity studies put the ratio at about 1.2 (dense grids, long trips)
    /// to 1.4 (short urban trips, rivers, one-way streets); 1.3 is the middle. Such distances are always flagged as
    /// estimates.
    public var detourFactor = 1.3

    /// Time constant of the exponentially weighted average of observed speed: 300 s.
    ///
    /// The average must span several traffic-light cycles (60–120 s each, a light every few hundred metres in town),
    /// so that it is the speed including stops, which is what the rest of the trip will see, and one long red light
    /// does not halve it; five minutes still follows a change from town to motorway within a few kilometres.
    public var smoothingTimeConstantSeconds = 300.0

    /// How fast the observed average earns trust over the category default: after watching the vehicle for t
    /// seconds it weighs 1 − e^(−t/τ) with τ = 180 s.
    ///
    /// In town a vehicle meets a light every 30–40 s of driving, and whether each was red is luck: three minutes
    /// averages about five lights, enough for the observed speed to say more about this vehicle than the category
    /// default does, while a vehicle much faster or slower than its default (a motorway at night, a gridlocked
    /// centre) still gets its own ETA within a few minutes.
    public var trustTimeConstantSeconds = 180.0

    /// Below this fraction of the category's default speed (0.25), the observed average says the vehicle has mostly
    /// been standing (a long light, a pickup) rather than how fast it will drive, so the free-flow speed blends
    /// toward the default speed, reaching it when the vehicle has been stopped outright. A stopped vehicle therefore
    /// never makes an ETA infinite.
    public var stoppedFloorFraction = 0.25

    /// Observed speeds older than this (600 s) are ignored and the default speed is used: a vehicle that has not
    /// reported for ten minutes may be anywhere doing anything.
    public var observationMaximumAgeSeconds = 600.0

    /// Position-derived speeds above this (70 m/s, 252 km/h) are GPS jumps and are dropped.
    public var maximumPlausibleMetersPerSecond = 70.0

    /// The default speed of a category when nothing has been observed, in km/h: typical door-to-door averages in
    /// mixed urban and suburban driving, stops included.
    ///
    /// - AUTO and UNKNOWN 40: city and suburban car trips average 25–50 km/h including lights.
    /// - TAXI 30: taxis work mostly in dense centres.
    /// - TRUCK 35: slower acceleration and restricted streets.
    /// - TWO_WHEELER 35: lower top speeds than cars, offset by filtering through queues.
    /// - BICYCLE 15: everyday urban cycling, stops included.
    /// - PEDESTRIAN 4.5: an ordinary walking pace (1.25 m/s).
    public func defaultKilometersPerHour(for category: VehicleCategory) -> Double {
        switch category {
        case .auto, .unknown: 40
        case .taxi: 30
        case .truck: 35
        case .twoWheeler: 35
        case .bicycle: 15
        case .pedestrian: 4.5
        }
    }

    /// ``defaultKilometersPerHour(for:)`` in metres per second.
    public func defaultMetersPerSecond(for category: VehicleCategory) -> Double {
        defaultKilometersPerHour(for: category) / 3.6
    }

    /// The documented values.
    public init() {}

    /// The documented values, shared.
    public static let standard = SpeedModel()
}
