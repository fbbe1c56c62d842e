import FleetGeo
import FleetRandom

/// A made-up town whose streets have a character of their own, for judging what history teaches: a grid of
/// streets where every street has its own speed, slows down by its own amount in the rush hours, and may have a
/// traffic light at its end and a stop along it with a dwell time. Drives between random corners of the town follow
/// the same streets as other drives and meet the same slow streets, lights and stops; each also has a driver who is a
/// little faster or slower, and some meet a queue that nothing foretells. Seeded: the town from one seed, the drives
/// from another, so history and test drives differ but share the town.
public struct SimulatedTown: Sendable {
    /// Corners per side of the square town.
    public var corners = 12
    /// Length of a block between two corners, metres.
    public var blockMeters = 250.0
    /// Seconds between reported fixes.
    public var reportingIntervalSeconds = 5.0
    /// Standard deviation of the GPS error on each fix, metres (each axis).
    public var gpsNoiseMeters = 4.0
    /// Where the town's south-west corner is (central Joensuu).
    public var origin = GeoPoint(latitude: 62.6010, longitude: 29.7636)
    /// The seed the town's streets are drawn from.
    public var townSeed: UInt64

    /// A town drawn from `townSeed`.
    public init(townSeed: UInt64 = 1) {
        self.townSeed = townSeed
    }

    /// One street, from one corner to the next, in one direction.
    struct Street {
        var metersPerSecond: Double
        /// Speed factor in the rush hours (weekdays 07:00–09:00 and 16:00–18:30).
        var rushFactor: Double
        var redChance: Double
        var redSeconds: ClosedRange<Double>
        /// Where along the street a stop is (metres), if it has one, and how likely and long a stop there is.
        var stopAt: Double?
        var stopChance: Double
        var dwellSeconds: ClosedRange<Double>
    }

    /// The street leaving corner (x, y) eastwards (dx = 1), westwards, northwards or southwards.
    func street(x: Int, y: Int, dx: Int, dy: Int) -> Street {
        let id = UInt64((x * 64 + y) * 16 + (dx + 1) * 4 + (dy + 1))
        var random = SeededRandom(seed: townSeed &* 0x9E37_79B9_7F4A_7C15 &+ id)
        let arterial = (dx != 0 ? y : x) % 4 == 0
        let kmh = arterial ? Double.random(in: 45...60, using: &random) : Double.random(in: 25...45, using: &random)
        let rush = arterial ? Double.random(in: 0.35...0.8, using: &random) : Double.random(in: 0.6...1.0, using: &random)
        let hasLight = arterial || Double.random(in: 0..<1, using: &random) < 0.4
        let hasStop = Double.random(in: 0..<1, using: &random) < 0.3
        return Street(metersPerSecond: kmh / 3.6, rushFactor: rush,
                      redChance: hasLight ? 0.45 : 0, redSeconds: 10...60,
                      stopAt: hasStop ? Double.random(in: 50...(blockMeters - 50), using: &random) : nil,
                      stopChance: 0.7, dwellSeconds: 15...45)
    }

    /// Monday 2023-11-13 00:00 UTC: the week the drives' times of day are laid in.
    static let monday = 1_699_833_600.0

    /// Whether `time` (epoch seconds, the town's clock is UTC) falls in a weekday rush hour.
    public static func isRushHour(_ time: Double) -> Bool {
        let sinceMonday = (time - monday).truncatingRemainder(dividingBy: 7 * 86_400)
        guard sinceMonday / 86_400 < 5 else { return false }
        let hour = sinceMonday.truncatingRemainder(dividingBy: 86_400) / 3600
        return (7..<9).contains(hour) || (16..<18.5).contains(hour)
    }

    /// `count` drives from `seed`, named `town-<seed>-1`, …: each between two random corners at least six blocks
    /// apart, east or west first and then north or south, leaving at a random time on a weekday between 06:00 and
    /// 20:00 of one of four weeks.
    public func drives(count: Int, seed: UInt64) -> [Drive] {
        var random = SeededRandom(seed: seed)
        return (1...max(1, count)).map { drive(id: "town-\(seed)-\($0)", random: &random) }
    }

    func corner(_ x: Int, _ y: Int) -> GeoPoint {
        let north = Geodesy.destination(from: origin, bearing: 0, meters: Double(y) * blockMeters)
        return Geodesy.destination(from: north, bearing: 90, meters: Double(x) * blockMeters)
    }

    func drive(id: String, random: inout SeededRandom) -> Drive {
        var from = (0, 0), to = (0, 0)
        repeat {
            from = (Int.random(in: 0..<corners, using: &random), Int.random(in: 0..<corners, using: &random))
            to = (Int.random(in: 0..<corners, using: &random), Int.random(in: 0..<corners, using: &random))
        } while abs(from.0 - to.0) + abs(from.1 - to.1) < 6
        // The corners passed: along x first, then along y.
        var path = [from]
        var at = from
        while at.0 != to.0 { at.0 += at.0 < to.0 ? 1 : -1; path.append(at) }
        while at.1 != to.1 { at.1 += at.1 < to.1 ? 1 : -1; path.append(at) }
        let week = Double(Int.random(in: 0..<4, using: &random))
        let day = Double(Int.random(in: 0..<5, using: &random))
        var time = Self.monday + week * 7 * 86_400 + day * 86_400 + Double.random(in: 6 * 3600...20 * 3600, using: &random)
        let driver = Double.random(in: 0.9...1.1, using: &random)
        // A queue on one block of the drive, on one drive in six, that no history foretells.
        let queueBlock = Double.random(in: 0..<1, using: &random) < 1.0 / 6 ? Int.random(in: 0..<(path.count - 1), using: &random) : -1
        let queueSpeed = Double.random(in: 4...12, using: &random) / 3.6

        var fixes: [Fix] = []
        var nextReport = time
        func report(_ point: GeoPoint, exact: Bool = false) {
            while time >= nextReport {
                fixes.append(Fix(time: nextReport, position: exact ? point : noisy(point, random: &random)))
                nextReport += reportingIntervalSeconds
            }
        }
        for block in 0..<(path.count - 1) {
            let (a, b) = (path[block], path[block + 1])
            let street = street(x: a.0, y: a.1, dx: b.0 - a.0, dy: b.1 - a.1)
            let start = corner(a.0, a.1), end = corner(b.0, b.1)
            var travelled = 0.0
            var stopped = street.stopAt == nil || Double.random(in: 0..<1, using: &random) >= street.stopChance
            while travelled < blockMeters {
                var speed = street.metersPerSecond * driver * (Self.isRushHour(time) ? street.rushFactor : 1)
                if block == queueBlock { speed = min(speed, queueSpeed) }
                var next = min(blockMeters, travelled + speed)
                if !stopped, let stopAt = street.stopAt, next >= stopAt {
                    next = stopAt
                    stopped = true
                    let dwell = Double.random(in: street.dwellSeconds, using: &random)
                    travelled = next
                    time += 1
                    report(Geodesy.interpolate(start, end, fraction: travelled / blockMeters))
                    time += dwell
                    report(Geodesy.interpolate(start, end, fraction: travelled / blockMeters))
                    continue
                }
                travelled = next
                time += 1
                report(Geodesy.interpolate(start, end, fraction: travelled / blockMeters))
            }
            if block < path.count - 2, Double.random(in: 0..<1, using: &random) < street.redChance {
                time += Double.random(in: street.redSeconds, using: &random)
                report(end)
            }
        }
        let destination = corner(to.0, to.1)
        fixes.append(Fix(time: time, position: destination))
        return Drive(id: id, fixes: fixes)
    }

    /// A position with GPS noise.
    private func noisy(_ point: GeoPoint, random: inout SeededRandom) -> GeoPoint {
        guard gpsNoiseMeters > 0 else { return point }
        let north = Double.random(in: -1...1, using: &random) * gpsNoiseMeters * 1.7
        let east = Double.random(in: -1...1, using: &random) * gpsNoiseMeters * 1.7
        let shifted = Geodesy.destination(from: point, bearing: 0, meters: north)
        return Geodesy.destination(from: shifted, bearing: 90, meters: east)
    }
}
