import FleetGeo
import Testing

@Suite("Route")
struct RouteTests {
    static let degree = 111_195.0797

    @Test func prefixSumsOfSegmentLengths() throws {
        // Along the equator, 0.001° steps: 111.195 m each.
        let route = try #require(Route(points: (0...4).map { GeoPoint(latitude: 0, longitude: Double($0) * 0.001) }))
        #expect(route.segmentCount == 4)
        #expect(route.cumulativeMeters.count == 5)
        for (index, meters) in route.cumulativeMeters.enumerated() {
            #expect(abs(meters - Double(index) * 0.001 * Self.degree) < 1e-4)
        }
        #expect(abs(route.totalMeters - 0.004 * Self.degree) < 1e-4)
    }

    @Test func pointAtMetersInterpolatesAndClamps() throws {
        let route = try #require(Route(points: [GeoPoint(latitude: 0, longitude: 0),
                                                GeoPoint(latitude: 0, longitude: 0.001),
                                                GeoPoint(latitude: 0.001, longitude: 0.001)]))
        let (segment, fraction) = route.location(atMeters: 0.0015 * Self.degree)
        #expect(segment == 1)
        #expect(abs(fraction - 0.5) < 1e-7)
        #expect(abs(route.point(atMeters: 0.0015 * Self.degree).latitude - 0.0005) < 1e-10)
        #expect(route.point(atMeters: -5) == route.start)
        #expect(route.point(atMeters: 1e9) == route.end)
    }

    @Test func emptyPointsAreNoRoute() {
        #expect(Route(points: []) == nil)
    }

    @Test func singlePointIsARouteOfLengthZero() throws {
        let route = try #require(Route(points: [GeoPoint(latitude: 1, longitude: 1)]))
        #expect(route.totalMeters == 0)
        #expect(route.segmentCount == 1)
        var progress = RouteProgress(route: route)
        let match = progress.update(GeoPoint(latitude: 1, longitude: 1.0001))
        #expect(match.remainingMeters == 0)
        #expect(!match.isOffRoute)
    }

    @Test func repeatedPointsMakeZeroLengthSegments() throws {
        let a = GeoPoint(latitude: 0, longitude: 0)
        let b = GeoPoint(latitude: 0, longitude: 0.001)
        let route = try #require(Route(points: [a, a, b, b]))
        var progress = RouteProgress(route: route)
        let match = progress.update(GeoPoint(latitude: 0, longitude: 0.0005))
        #expect(match.segmentIndex == 1)
        #expect(abs(match.travelledMeters - 0.0005 * Self.degree) < 1e-4)
    }
}
