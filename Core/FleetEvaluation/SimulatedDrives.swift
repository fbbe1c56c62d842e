import FleetDriver
import FleetGeo
import FleetRandom

/// Made-up town drives with what real drives have and a steady simulation lacks: traffic lights that may be red,
/// queues that crawl, a cruising speed that differs from driver to driver and GPS noise. Seeded, so the same seed
/// gives the same drives; used to tune the ETA model beside real drives and to test the evaluation.
public struct SimulatedDrives: Sendable {
    /// Seconds between reported fixes (the Driver SDK reports every 5–10 s).
    public var reportingIntervalSeconds = 5.0
    /// Standard deviation of the GPS error on each fix, metres (each axis).
    public var gpsNoiseMeters = 4.0
    /// Range of drive lengths, metres.
    public var lengthMeters: ClosedRange<Double> = 2_000...12_000
    /// Range of cruising speeds between lights, km/h (one per drive).
    public var cruiseKilometersPerHour: ClosedRange<Double> = 25...60
    /// Distance between traffic lights, metres.
    public var lightSpacingMeters: ClosedRange<Double> = 250...700
    /// Chance that a light is red, and how long a red light holds the car, seconds.
    public var redChance = 0.45
    public var redWaitSeconds: ClosedRange<Double> = 10...60
    /// Chance that a drive meets a queue, its length (metres) and its crawling speed (km/h).
    public var jamChance = 0.35
    public var jamMeters: ClosedRange<Double> = 300...1_500
    public var jamKilometersPerHour: ClosedRange<Double> = 4...12
    /// Where the drives start (central Joensuu, where the real car drives were recorded).
    public var origin = GeoPoint(latitude: 62.6010, longitude: 29.7636)

    /// The standard mix.
    public init() {}

    /// `count` drives from `seed`, named `sim-1`, `sim-2`, …
    public func drives(count: Int, seed: UInt64) -> [Drive] {
        var random = SeededRandom(seed: seed)
        return (1...max(1, count)).map { drive(id: "sim-\($0)", random: &random) }
    }

    /// One drive: a path of straight blocks with turns, driven second by second.
    func drive(id: String, random: inout SeededRandom) -> Drive {
        let length = Double.random(in: lengthMeters, using: &random)
        let cruise = Double.random(in: cruiseKilometersPerHour, using: &random) / 3.6
        // The path: blocks of 100–400 m, turning left or right or going on at each corner.
        var path = [origin]
        var bearing = Double.random(in: 0..<360, using: &random)
        var built = 0.0
        while built < length {
            let block = min(Double.random(in: 100...400, using: &random), length - built)
            path.append(Geodesy.destination(from: path[path.count - 1], bearing: bearing, meters: block))
            built += block
            bearing += [-90.0, 0, 0, 90][Int.random(in: 0..<4, using: &random)]
        }
        let route = Route(points: path)!
        // Where the lights are, and how long each red one holds the car.
        var waits: [(at: Double, seconds: Double)] = []
        var at = Double.random(in: lightSpacingMeters, using: &random)
        while at < length - 50 {
            if Double.random(in: 0..<1, using: &random) < redChance {
                waits.append((at, Double.random(in: redWaitSeconds, using: &random)))
            }
            at += Double.random(in: lightSpacingMeters, using: &random)
        }
        var jam: ClosedRange<Double>? = nil
        var jamSpeed = cruise
        if Double.random(in: 0..<1, using: &random) < jamChance {
            let jamLength = min(Double.random(in: jamMeters, using: &random), length / 2)
            let start = Double.random(in: 0...(length - jamLength), using: &random)
            jam = start...(start + jamLength)
            jamSpeed = min(cruise, Double.random(in: jamKilometersPerHour, using: &random) / 3.6)
        }
        // Drive it, one second at a time, and report a fix every interval.
        var fixes: [Fix] = []
        var travelled = 0.0
        var time = 1_700_000_000.0
        var nextReport = time
        var nextWait = 0
        var waiting = 0.0
        while true {
            if time >= nextReport || travelled >= length {
                fixes.append(Fix(time: time, position: noisy(route.point(atMeters: travelled), random: &random,
                                                             exact: travelled >= length)))
                nextReport += reportingIntervalSeconds
                if travelled >= length { break }
            }
            time += 1
            if waiting > 0 {
                waiting -= 1
                continue
            }
            let speed = jam?.contains(travelled) == true ? jamSpeed : cruise
            var next = min(length, travelled + speed)
            if nextWait < waits.count, next >= waits[nextWait].at {
                next = waits[nextWait].at
                waiting = waits[nextWait].seconds
                nextWait += 1
            }
            travelled = next
        }
        return Drive(id: id, fixes: fixes)
    }

    /// A position with GPS noise (none on the last fix, which is the destination).
    private func noisy(_ point: GeoPoint, random: inout SeededRandom, exact: Bool) -> GeoPoint {
        guard !exact, gpsNoiseMeters > 0 else { return point }
        let north = Double.random(in: -1...1, using: &random) * gpsNoiseMeters * 1.7
        let east = Double.random(in: -1...1, using: &random) * gpsNoiseMeters * 1.7
        let shifted = Geodesy.destination(from: point, bearing: 0, meters: north)
        return Geodesy.destination(from: shifted, bearing: 90, meters: east)
    }
}
