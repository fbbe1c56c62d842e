import FleetErrors
import FleetGeo
import FleetRouting
import StraightRouter
import Testing

struct StraightRouterTests {
    let helsinkiStation = GeoPoint(latitude: 60.1719, longitude: 24.9414)
    let senateSquare = GeoPoint(latitude: 60.1695, longitude: 24.9525)
    let market = GeoPoint(latitude: 60.1675, longitude: 24.9532)

    @Test func greatCircleTimesDetourAtTheDefaultSpeed() throws {
        let plan = try StraightRouter().route(RouteRequest(from: helsinkiStation, to: senateSquare, category: .auto))
        let crow = Geodesy.distance(helsinkiStation, senateSquare)
        #expect(crow > 600 && crow < 700)
        #expect(abs(plan.distanceMeters - crow * 1.3) < 1e-6)
        #expect(abs(plan.durationSeconds - crow * 1.3 / (40 / 3.6)) < 1e-6)
        #expect(plan.isEstimate)
        #expect(plan.points == [helsinkiStation, senateSquare])
        #expect(plan.encodedPolyline == Polyline.encode([helsinkiStation, senateSquare]))
    }

    @Test func viasAddTheirLegsAndEachCategoryItsSpeed() throws {
        let plan = try StraightRouter().route(RouteRequest(from: helsinkiStation, to: market, via: [senateSquare], category: .pedestrian))
        let first = Geodesy.distance(helsinkiStation, senateSquare) * 1.3
        let second = Geodesy.distance(senateSquare, market) * 1.3
        #expect(plan.waypointIndices == [0, 1, 2])
        #expect(abs(plan.arrival(atWaypoint: 1).meters - first) < 1e-6)
        #expect(abs(plan.distanceMeters - first - second) < 1e-6)
        #expect(abs(plan.durationSeconds - (first + second) / (4.5 / 3.6)) < 1e-6)
        let bicycle = try StraightRouter().route(RouteRequest(from: helsinkiStation, to: market, category: .bicycle))
        #expect(abs(bicycle.durationSeconds - bicycle.distanceMeters / (15 / 3.6)) < 1e-6)
    }

    @Test func badPointsNameTheirField() throws {
        let router = StraightRouter()
        let latitude = try #require(throws: FleetError.self) {
            try router.route(RouteRequest(from: helsinkiStation, to: market, via: [GeoPoint(latitude: 91, longitude: 0)]))
        }
        #expect(latitude.code == .invalidArgument && latitude.field == "via[0]")
        #expect(latitude.message.contains("via[0].latitude"))
        let longitude = try #require(throws: FleetError.self) {
            try router.route(RouteRequest(from: helsinkiStation, to: GeoPoint(latitude: 0, longitude: .nan)))
        }
        #expect(longitude.field == "to")
        let single = try #require(throws: FleetError.self) { try router.route(RouteRequest(waypoints: [market])) }
        #expect(single.code == .invalidArgument && single.field == "to")
    }
}
