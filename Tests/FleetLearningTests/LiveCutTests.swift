#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetGeo
@testable import FleetLearning
import Testing

/// The short cuts of the live feed give what the general ones give.
struct LiveCutTests {
    typealias Numbers = RouteTrafficReadingsTests.Numbers

    /// Metres per degree of latitude on the mean sphere, as the grid counts them.
    static let metersPerDegree = Geodesy.earthRadiusMeters * Double.pi / 180

    /// A random interval of a live drive: a start, perhaps a fix where the vehicle stood, and an end, each after the
    /// last by a random kind of step (driving, standing, too soon to count, a long silence, a jump, back in time).
    static func interval(_ numbers: inout Numbers) -> [Fix] {
        var position = GeoPoint(latitude: (numbers.next() * 2 - 1) * 70, longitude: (numbers.next() * 2 - 1) * 180)
        var time = 1_769_385_600 + numbers.next() * 604_800
        var fixes = [Fix(time: time, position: position)]
        for _ in 0..<(numbers.next() < 0.5 ? 1 : 2) {
            var seconds = 1 + numbers.next() * 15, meters = numbers.next() * 20 * seconds
            switch numbers.next() {
            case ..<0.2: meters = numbers.next() * 4
            case ..<0.25: seconds = numbers.next() * 1.2
            case ..<0.3: seconds = 590 + numbers.next() * 20
            case ..<0.35: meters = 65 * seconds * (1 + numbers.next() * 0.2)
            case ..<0.4: seconds = -numbers.next() * 5
            default: break
            }
            position = Geodesy.destination(from: position, bearing: numbers.next() * 360, meters: meters)
            time += seconds
            fixes.append(Fix(time: time, position: position))
        }
        return fixes
    }

    @Test func aLiveIntervalIsCutAsTheLearnerCutsItsFixes() {
        var numbers = Numbers(state: 5)
        var learner = DriveLearner(utcOffsetSeconds: 3600)
        learner.maximumWaitSeconds = 20
        var passes = 0
        for _ in 0..<20_000 {
            let fixes = Self.interval(&numbers)
            let start = fixes[0], end = fixes[fixes.count - 1]
            var live: [PieceObservation] = []
            learner.passes(from: start, through: fixes.count == 3 ? fixes[1] : nil, to: end,
                           startToEndMeters: Geodesy.distance(start.position, end.position)) { live.append($0) }
            let expected = learner.passes(of: fixes)
            #expect(live == expected, "\(fixes)")
            passes += expected.count
        }
        // Most intervals make passes, some with waits, some capped.
        #expect(passes > 50_000)
    }

    @Test func aRowKeptFromPieceToPieceCutsWithTheCosineAtItsOwnCentre() {
        var numbers = Numbers(state: 9)
        var row = RoadPiece.Row()
        var point = GeoPoint(latitude: 51.5, longitude: -0.1)
        var rowsCrossed = 0
        for step in 0..<100_000 {
            // Mostly steps of a few metres (the row is kept), now and then a jump across the globe.
            point = step % 500 == 0
                ? GeoPoint(latitude: (numbers.next() * 2 - 1) * 85, longitude: (numbers.next() * 2 - 1) * 180)
                : Geodesy.destination(from: point, bearing: numbers.next() * 360, meters: numbers.next() * 15)
            let before = row.north
            let piece = RoadPiece(at: point, heading: 3, row: &row)
            if row.north != before { rowsCrossed += 1 }
            let north = (point.latitude * Self.metersPerDegree / RoadPiece.sizeMeters).rounded(.down)
            let centre = (north + 0.5) * RoadPiece.sizeMeters / Self.metersPerDegree
            let east = (point.longitude * Self.metersPerDegree * cos(centre * Double.pi / 180) / RoadPiece.sizeMeters).rounded(.down)
            #expect(piece == RoadPiece(east: Int32(east), north: Int32(north), heading: 3), "\(point)")
            #expect(piece == RoadPiece(at: point, bearing: 135))
        }
        #expect(rowsCrossed > 1_000 && rowsCrossed < 50_000, "\(rowsCrossed) rows")
    }

    @Test func headingsAreTheEightSectorsCentredOnTheCompassPoints() {
        #expect(RoadPiece.heading(ofBearing: 0) == 0)
        #expect(RoadPiece.heading(ofBearing: 22.4) == 0)
        #expect(RoadPiece.heading(ofBearing: 22.5) == 1)
        #expect(RoadPiece.heading(ofBearing: 90) == 2)
        #expect(RoadPiece.heading(ofBearing: 337.4) == 7)
        #expect(RoadPiece.heading(ofBearing: 337.5) == 0)
        #expect(RoadPiece.heading(ofBearing: -90) == 6)
        #expect(RoadPiece.heading(ofBearing: 450) == 2)
    }
}
