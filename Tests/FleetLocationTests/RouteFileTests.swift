import FleetErrors
import FleetGeo
import FleetLocation
import Foundation
import Testing

@Suite("Route files: GPX, encoded polyline, GeoJSON")
struct RouteFileTests {
    static let points = [GeoPoint(latitude: 38.5, longitude: -120.2), GeoPoint(latitude: 40.7, longitude: -120.95),
                         GeoPoint(latitude: 43.252, longitude: -126.453)]

    @Test("Google's documented polyline decodes")
    func polyline() throws {
        #expect(try RouteFile.parse("_p~iF~ps|U_ulLnnqC_mqNvxq`@\n") == Self.points)
    }

    @Test("A polyline that starts with '{' is still a polyline, in a file and inline")
    func polylineLikeJSON() throws {
        let points = [GeoPoint(latitude: 52.3731, longitude: 4.8926), GeoPoint(latitude: 52.3731, longitude: 4.9)]
        let encoded = Polyline.encode(points)
        #expect(encoded.hasPrefix("{"))
        #expect(try RouteFile.parse(encoded) == points)
        #expect(try RouteReference.polyline(encoded).points() == points)
    }

    @Test("GeoJSON LineString, Feature, FeatureCollection and MultiLineString give [lon, lat] points",
          arguments: [
            #"{"type":"LineString","coordinates":[[-120.2,38.5],[-120.95,40.7],[-126.453,43.252,12]]}"#,
            #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[-120.2,38.5],[-120.95,40.7],[-126.453,43.252]]}}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[-120.2,38.5],[-120.95,40.7],[-126.453,43.252]]}}]}"#,
            #"{"type":"MultiLineString","coordinates":[[[-120.2,38.5],[-120.95,40.7]],[[-126.453,43.252]]]}"#,
          ])
    func geoJSON(text: String) throws {
        #expect(try RouteFile.parse(text) == Self.points)
    }

    @Test("A GPX route (or else its track) is the route")
    func gpx() throws {
        let text = """
            <gpx><trk><trkseg><trkpt lat="1" lon="1"/><trkpt lat="2" lon="2"/></trkseg></trk>
            <rte><rtept lat="38.5" lon="-120.2"/><rtept lat="40.7" lon="-120.95"/><rtept lat="43.252" lon="-126.453"/></rte></gpx>
            """
        #expect(try RouteFile.parse(text) == Self.points)
        #expect(try RouteFile.parse("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"/><trkpt lat=\"2\" lon=\"2\"/></trkseg></trk></gpx>").count == 2)
    }

    @Test("Unreadable routes are refused naming the problem",
          arguments: ["not a polyline at all!", "{\"type\":\"Point\",\"coordinates\":[1,2]}", "{\"type\":\"LineString\",\"coordinates\":[[1]]}",
                      "{broken", "_p~iF~ps|U", "<gpx></gpx>"])
    func refuses(text: String) {
        let error = #expect(throws: FleetError.self) { try RouteFile.parse(text, source: "r.txt") }
        #expect(error?.message.contains("r.txt") == true)
        #expect(error?.code == .invalidArgument)
    }

    @Test("A missing file is named in the error")
    func missingFile() {
        let error = #expect(throws: FleetError.self) { try RouteFile.read(path: "/nonexistent/route.gpx") }
        #expect(error?.message.contains("/nonexistent/route.gpx does not exist") == true)
    }
}

@Suite("Jump filter")
struct JumpFilterTests {
    let start = GeoPoint(latitude: 52.37, longitude: 4.89)

    func sample(_ point: GeoPoint, at seconds: Int64) -> LocationSample {
        LocationSample(point: point, time: .init(seconds: 1_700_000_000 + seconds))
    }

    @Test("Believable moves pass; a jump over the speed bound is dropped and reported")
    func dropsJump() {
        var filter = JumpFilter(maximumMetersPerSecond: 70)
        #expect(filter.check(sample(start, at: 0), receivedAt: 0) == .accepted)
        #expect(filter.check(sample(offset(start, bearing: 90, meters: 60), at: 1), receivedAt: 0) == .accepted)
        let verdict = filter.check(sample(offset(start, bearing: 90, meters: 5_060), at: 2), receivedAt: 0)
        guard case .dropped(let speed, let meters) = verdict else {
            Issue.record("expected a drop, got \(verdict)")
            return
        }
        #expect(abs(meters - 5000) < 1)
        #expect(speed > 4000)
        #expect(filter.check(sample(offset(start, bearing: 90, meters: 100), at: 3), receivedAt: 0) == .accepted,
                "the filter still measures from the last accepted location")
    }

    @Test("Times closer than a second count as one second, so jitter is not a jump")
    func jitterIsNotJump() {
        var filter = JumpFilter(maximumMetersPerSecond: 70)
        _ = filter.check(sample(start, at: 0), receivedAt: 0)
        #expect(filter.check(sample(offset(start, bearing: 0, meters: 20), at: 0), receivedAt: 0) == .accepted)
    }

    @Test("Several consistent locations after a jump re-anchor the filter")
    func reanchors() {
        var filter = JumpFilter(maximumMetersPerSecond: 70, confirmations: 3)
        _ = filter.check(sample(start, at: 0), receivedAt: 0)
        let far = offset(start, bearing: 180, meters: 20_000)
        #expect(filter.check(sample(far, at: 1), receivedAt: 0) != .accepted)
        #expect(filter.check(sample(offset(far, bearing: 0, meters: 10), at: 2), receivedAt: 0) != .accepted)
        #expect(filter.check(sample(offset(far, bearing: 0, meters: 20), at: 3), receivedAt: 0) == .reanchored)
        #expect(filter.check(sample(offset(far, bearing: 0, meters: 30), at: 4), receivedAt: 0) == .accepted)
    }

    @Test("Without sample times the receive times are used")
    func receiveTimes() {
        var filter = JumpFilter(maximumMetersPerSecond: 70)
        _ = filter.check(LocationSample(point: start), receivedAt: 100)
        #expect(filter.check(LocationSample(point: offset(start, bearing: 0, meters: 600)), receivedAt: 110) == .accepted)
        #expect(filter.check(LocationSample(point: offset(start, bearing: 0, meters: 2_000)), receivedAt: 111) != .accepted)
    }
}
