import FleetEngine
import FleetGeo
import FleetLearning
import FleetTestSupport
import Foundation
import Testing

/// The rider's page in headless Chromium colours the route ahead by the traffic the server derives from what the
/// fleet just drove against what it learned: red where another car just crawled the road to the pickup.
@Suite(.serialized) struct RiderTrafficPageTests {
    /// The car's route learned at 10 m/s at every hour of the week.
    static func learnedRoute() -> [PieceObservation] {
        let route = Route(points: MapFixture.route.map { GeoPoint(latitude: $0.0, longitude: $0.1) })!
        var times = RoadTimes()
        let learner = DriveLearner(utcOffsetSeconds: LearnedETASettings().model.utcOffsetSeconds)
        for hour in stride(from: 0.0, to: 168, by: 1) {
            let start = 1_769_385_600 + hour * 3600
            learner.learn(stride(from: 0.0, through: route.totalMeters / 10, by: 5).map {
                Fix(time: start + $0, position: route.point(atMeters: $0 * 10))
            }, into: &times)
        }
        return times.rows
    }

    static func rfc3339(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    @Test func aStretchAnotherCarJustCrawledIsRedOnTheRidersRoute() throws {
        // A server on an SQLite store the test learns into before any car reports.
        let fleet = try MapFixture(deliveries: true)
        let engine = try #require(fleet.deliveries as? Engine)
        try engine.learnedTimesStorage.add(Self.learnedRoute(), provider: MapFixture.provider)

        // Another car crawls the route's second street (towards the pickup) at 2 m/s: a fifth of the learned speed.
        try fleet.rest("POST", "/vehicles?vehicleId=other", [
            "vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": ["category": "AUTO"],
        ])
        let street = Route(points: [MapFixture.route[1], MapFixture.route[2]].map { GeoPoint(latitude: $0.0, longitude: $0.1) })!
        let started = Date().timeIntervalSince1970 - 200
        for step in 0...15 {
            let p = street.point(atMeters: min(street.totalMeters, Double(step) * 20))
            try fleet.rest("PUT", "/vehicles/other?updateMask=lastLocation", [
                "lastLocation": ["location": ["latitude": p.latitude, "longitude": p.longitude],
                                 "updateTime": Self.rfc3339(started + Double(step) * 10)],
            ])
        }

        try fleet.createCarAndRide()
        let trip = try fleet.rest("GET", "/trips/ride-1")
        let intervals = (trip["currentRouteSegmentTraffic"] as? [String: Any])?["speedReadingInterval"] as? [[String: Any]] ?? []
        #expect(intervals.contains { $0["speed"] as? String == "TRAFFIC_JAM" }, "\(trip)")

        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/trips/ride-1")
        try browser.wait("the route in red where the other car crawled", """
            return Array.from(document.querySelectorAll('.leaflet-overlay-pane path')).some(p => p.getAttribute('stroke') === '#c5221f');
            """)
        try Screenshots.take(browser, "rider-traffic-jam")
        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        #expect(errors.isEmpty, "console: \(errors)")
    }
}
