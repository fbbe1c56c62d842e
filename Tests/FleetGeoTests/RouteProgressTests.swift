import FleetGeo
import Foundation
import Testing
import FleetRandom

@Suite("Route progress")
struct RouteProgressTests {
    static let degree = 111_195.0797
    let grid = LocalGrid(origin: GeoPoint(latitude: 37.77, longitude: -122.42))

    @Test func straightLineAlongTheEquator() throws {
        // 10 points 0.001° apart along the equator: 1,000.76 m. A point 0.0001° (11.12 m) north of 0.0025°.
        let route = try #require(Route(points: (0...9).map { GeoPoint(latitude: 0, longitude: Double($0) * 0.001) }))
        var progress = RouteProgress(route: route)
        let match = progress.update(GeoPoint(latitude: 0.0001, longitude: 0.0025))
        #expect(match.segmentIndex == 2)
        #expect(abs(match.fraction - 0.5) < 1e-9)
        #expect(abs(match.travelledMeters - 0.0025 * Self.degree) < 1e-4)
        #expect(abs(match.remainingMeters - 0.0065 * Self.degree) < 1e-4)
        #expect(abs(match.offRouteMeters - 0.0001 * Self.degree) < 1e-3)
        #expect(!match.isOffRoute)
        #expect(!match.usedFullSearch)
    }

    @Test func progressAlongAStraightRoadNeverLagsAVertex() throws {
        // Points every 15 m; the vehicle 10 m past a vertex must match the segment after it, not the end of the one
        // before (both are within the preference tolerance).
        let route = try #require(Route(points: grid.densified([(0, 0), (600, 0)], spacing: 15)))
        var progress = RouteProgress(route: route)
        for east in stride(from: 5.0, through: 595, by: 10) {
            let match = progress.update(grid.point(east: east, north: 2))
            #expect(abs(match.travelledMeters - east) < 0.5, "at \(east) m")
            #expect(abs(match.offRouteMeters - 2) < 0.05)
        }
    }

    @Test func loopRoadStartsAtTheStartAndEndsAtTheEnd() throws {
        // A 400 m × 400 m block driven once around: start and end are the same corner.
        let corners: [(Double, Double)] = [(0, 0), (400, 0), (400, 400), (0, 400), (0, 0)]
        let route = try #require(Route(points: grid.densified(corners, spacing: 50)))
        #expect(abs(route.totalMeters - 1600) < 0.5)
        var progress = RouteProgress(route: route)
        let first = progress.update(grid.point(east: 1, north: -1))
        #expect(first.travelledMeters < 2)
        var previous = first.travelledMeters
        for along in stride(from: 40.0, through: 1590, by: 40) {
            let onRoute = route.point(atMeters: along)
            let match = progress.update(onRoute)
            #expect(abs(match.travelledMeters - along) < 0.5, "at \(along) m")
            #expect(match.travelledMeters > previous)
            previous = match.travelledMeters
        }
        let last = progress.update(grid.point(east: -1, north: 1))
        #expect(abs(last.remainingMeters) < 2)
    }

    @Test(arguments: [true, false])
    func uTurnOnTheSameRoadKeepsProgressGoingForward(reportsHeading: Bool) throws {
        // North 500 m, U-turn, back south 500 m along the very same line. Driving back, every location is as close
        // to the northbound leg as to the southbound one: only direction (reported, or moved) can tell them apart.
        let route = try #require(Route(points: grid.densified([(0, 0), (0, 500), (0, 0)], spacing: 25)))
        var progress = RouteProgress(route: route)
        var previous = -1.0
        for along in stride(from: 10.0, through: 990, by: 20) {
            let heading = along < 500 ? 0.0 : 180.0
            let match = progress.update(route.point(atMeters: along), heading: reportsHeading ? heading : nil)
            if !reportsHeading && along > 500 && along < 520 {
                // Without a heading, the first fix after the turn (490 m → 510 m is no movement at all) cannot be
                // told from the vehicle standing still; it may lag, but never by more than the turn and never back.
                #expect(abs(match.travelledMeters - along) <= 20 + 1e-6, "at \(along) m")
            } else {
                #expect(abs(match.travelledMeters - along) < 0.5, "at \(along) m")
            }
            #expect(match.travelledMeters >= previous - 1e-6)
            previous = match.travelledMeters
        }
    }

    @Test func routeThatCrossesItselfStaysOnThePassBeingDriven() throws {
        // East 400 m, north 150, west 200, south 300, west 200: the southbound leg crosses the first leg at
        // (200, 0). First pass there: 200 m along; second pass: 400 + 150 + 200 + 150 = 900 m along — inside the
        // incremental window, so the preference for the earliest pass is what keeps the match right.
        let corners: [(Double, Double)] = [(0, 0), (400, 0), (400, 150), (200, 150), (200, -150), (0, -150)]
        let route = try #require(Route(points: grid.densified(corners, spacing: 20)))
        var progress = RouteProgress(route: route)
        for along in stride(from: 0.0, through: 1250, by: 25) {
            let match = progress.update(route.point(atMeters: along))
            #expect(abs(match.travelledMeters - along) < 0.5, "at \(along) m")
        }
        // At the crossing with no heading and no movement history: the first pass, even when GPS noise puts the fix
        // a metre nearer the second pass (4 m from the first leg, 3 m from the second).
        var fresh = RouteProgress(route: route)
        #expect(abs(fresh.update(grid.point(east: 200, north: 0)).travelledMeters - 200) < 0.5)
        var noisy = RouteProgress(route: route)
        #expect(abs(noisy.update(grid.point(east: 197, north: 4)).travelledMeters - 197) < 0.5)
    }

    @Test func routeAcrossTheAntimeridian() throws {
        // Along the equator from 179.99° E to 179.99° W, 0.005° steps.
        let longitudes = [179.99, 179.995, -180.0, -179.995, -179.99]
        let route = try #require(Route(points: longitudes.map { GeoPoint(latitude: 0, longitude: $0) }))
        #expect(abs(route.totalMeters - 0.02 * Self.degree) < 1e-4)
        var progress = RouteProgress(route: route)
        let west = progress.update(GeoPoint(latitude: 0.0001, longitude: 179.999))
        #expect(abs(west.travelledMeters - 0.009 * Self.degree) < 1e-3)
        let east = progress.update(GeoPoint(latitude: -0.0001, longitude: -179.998))
        #expect(abs(east.travelledMeters - 0.012 * Self.degree) < 1e-3)
        #expect(abs(east.offRouteMeters - 0.0001 * Self.degree) < 1e-3)
        #expect(!east.isOffRoute)
        #expect(!east.usedFullSearch)
    }

    @Test func pointFarOffRouteKeepsProgressAndReportsTheDistance() throws {
        let route = try #require(Route(points: grid.densified([(0, 0), (1000, 0)], spacing: 50)))
        var progress = RouteProgress(route: route)
        _ = progress.update(grid.point(east: 300, north: 0))
        let far = progress.update(grid.point(east: 600, north: 5000))
        #expect(far.isOffRoute)
        #expect(far.usedFullSearch)
        #expect(abs(far.offRouteMeters - 5000) < 5)
        #expect(abs(far.travelledMeters - 300) < 0.5)
        // Just past the threshold (50 m) is off route too; just inside is not.
        #expect(progress.update(grid.point(east: 320, north: 52)).isOffRoute)
        #expect(!progress.update(grid.point(east: 320, north: 48)).isOffRoute)
    }

    @Test func headingChoosesTheCarriagewayOnAFoldingRoad() throws {
        // Up a divided road on the west carriageway, U-turn, down the east one 10 m away. A location midway between
        // the carriageways is 5 m from both: the heading decides.
        let corners: [(Double, Double)] = [(0, 0), (0, 300), (10, 300), (10, 0)]
        let route = try #require(Route(points: grid.densified(corners, spacing: 30)))
        let progress = RouteProgress(route: route)
        let location = grid.point(east: 5, north: 150)
        let north = progress.fullSearch(location, heading: 10)
        #expect(abs(north.travelledMeters - 150) < 0.5)
        let south = progress.fullSearch(location, heading: 185)
        #expect(abs(south.travelledMeters - (300 + 10 + 150)) < 0.5)
        // A wrong-way segment is still used when it is the only one near (reversing, or a noisy heading).
        let single = try #require(Route(points: grid.densified([(0, 0), (0, 300)], spacing: 30)))
        #expect(!RouteProgress(route: single).fullSearch(grid.point(east: 3, north: 100), heading: 180).isOffRoute)
    }

    @Test func lostVehicleIsFoundByTheFullSearch() throws {
        // 5 km straight road; the window is 1 km, so a jump of 3 km (a long GPS outage) needs the full search.
        let route = try #require(Route(points: grid.densified([(0, 0), (5000, 0)], spacing: 10)))
        var progress = RouteProgress(route: route)
        let start = progress.update(grid.point(east: 100, north: 0))
        #expect(!start.usedFullSearch)
        let jumped = progress.update(grid.point(east: 3100, north: 3))
        #expect(jumped.usedFullSearch)
        #expect(!jumped.isOffRoute)
        #expect(abs(jumped.travelledMeters - 3100) < 0.5)
        let next = progress.update(grid.point(east: 3200, north: 3))
        #expect(!next.usedFullSearch)
        #expect(abs(next.travelledMeters - 3200) < 0.5)
    }

    @Test func resumingFromAStoredDistanceKeepsTheSearchIncremental() throws {
        // A server that stored only "4,200 m travelled" rebuilds the progress and matches the next fix without a
        // full search.
        let route = try #require(Route(points: grid.densified([(0, 0), (8000, 0)], spacing: 10)))
        var resumed = RouteProgress(route: route, resumingAtMeters: 4200)
        let match = resumed.update(grid.point(east: 4290, north: 5))
        #expect(!match.usedFullSearch)
        #expect(abs(match.travelledMeters - 4290) < 0.5)
        // Without the stored distance the same fix is beyond the 1 km window from the start.
        var fresh = RouteProgress(route: route)
        #expect(fresh.update(grid.point(east: 4290, north: 5)).usedFullSearch)
    }

    @Test func vehicleRejoiningAfterADetourIsPickedUpAgain() throws {
        let route = try #require(Route(points: grid.densified([(0, 0), (2000, 0)], spacing: 20)))
        var progress = RouteProgress(route: route)
        _ = progress.update(grid.point(east: 200, north: 0))
        #expect(progress.update(grid.point(east: 400, north: 300)).isOffRoute)
        #expect(progress.update(grid.point(east: 700, north: 300)).isOffRoute)
        let back = progress.update(grid.point(east: 900, north: 4))
        #expect(!back.isOffRoute)
        #expect(abs(back.travelledMeters - 900) < 0.5)
    }

    @Test func incrementalAndFullSearchAgreeOnAWindingRoute() throws {
        // A random winding road that never comes back on itself (always heading roughly east), driven with 8 m GPS
        // noise: the windowed search must find exactly what the whole-route search finds.
        var generator = SeededRandom(seed: 7)
        var corners: [(Double, Double)] = [(0, 0)]
        var bearing = 90.0
        for _ in 0..<200 {
            bearing = min(150, max(30, bearing + Double.random(in: -25...25, using: &generator)))
            let step = Double.random(in: 10...60, using: &generator)
            let (x, y) = corners[corners.count - 1]
            corners.append((x + step * sin(bearing * .pi / 180), y + step * cos(bearing * .pi / 180)))
        }
        let route = try #require(Route(points: grid.points(corners)))
        var progress = RouteProgress(route: route)
        var along = 0.0
        while along < route.totalMeters {
            let truth = route.point(atMeters: along)
            let noisy = GeoPoint(latitude: truth.latitude + generator.gaussian(standardDeviation: 8) / Self.degree,
                                 longitude: truth.longitude + generator.gaussian(standardDeviation: 8) / Self.degree)
            let baseline = progress.fullSearch(noisy)
            let match = progress.update(noisy)
            #expect(!match.usedFullSearch)
            #expect(abs(match.travelledMeters - baseline.travelledMeters) < 1e-6, "at \(along) m")
            along += Double.random(in: 20...150, using: &generator)
        }
    }
}
