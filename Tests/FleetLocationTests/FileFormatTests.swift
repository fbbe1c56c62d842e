import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import Testing

@Suite("GPX, CSV and JSON Lines")
struct FileFormatTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- recorded by a phone -->
        <gpx version="1.1" creator="test &amp; co" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
          <metadata><time>2020-01-01T00:00:00Z</time></metadata>
          <wpt lat="52.0" lon="5.0"><name>home</name></wpt>
          <rte><name>plan</name><rtept lat="52.1" lon="5.1"/><rtept lat='52.2' lon='5.2'></rtept></rte>
          <trk><name><![CDATA[Morning <drive>]]></name>
            <trkseg>
              <trkpt lat="52.370" lon="4.890"><ele>2.5</ele><time>2024-05-01T08:00:00Z</time>
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>8.5</gpxtpx:speed><gpxtpx:course>90</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
              </trkpt>
            </trkseg>
            <trkseg>
              <trkpt lat="52.371" lon="4.891"><time>2024-05-01T08:00:05Z</time></trkpt>
            </trkseg>
          </trk>
        </gpx>
        """

    @Test("GPX tracks, routes and waypoints are read with elevation, time, speed and course")
    func readsGPX() throws {
        let document = try GPXDocument(parsing: Self.gpx)
        #expect(document.waypoints.count == 1)
        #expect(document.routes.first?.map(\.point) == [GeoPoint(latitude: 52.1, longitude: 5.1), GeoPoint(latitude: 52.2, longitude: 5.2)])
        let track = try #require(document.tracks.first)
        #expect(track.count == 2, "segments are joined")
        #expect(track[0].elevation == 2.5)
        #expect(track[0].speed == 8.5)
        #expect(track[0].course == 90)
        #expect(track[1].time == (try Timestamp(rfc3339: "2024-05-01T08:00:05Z")))
        #expect(document.recordedPoints.count == 2, "a replay uses the track")
        #expect(document.routePoints.count == 2 && document.routePoints[0].latitude == 52.1, "a route to follow uses the route")
    }

    @Test("Broken GPX is refused with a message naming the problem",
          arguments: [
            "<gpx><trk><trkseg><trkpt lat=\"52\"></trkpt></trkseg></trk></gpx>",
            "<gpx><trk><trkseg><trkpt lat=\"95\" lon=\"0\"/></trkseg></trk></gpx>",
            "<gpx><trk></gpx>",
            "<kml></kml>",
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele>high</ele></trkpt></trkseg></trk></gpx>",
            "<gpx><wpt lat=\"1\" lon=\"2\"><time>noon</time></wpt></gpx>",
            "<gpx attr=noquotes></gpx>",
            "<gpx>&bogus;</gpx>",
          ])
    func refusesBrokenGPX(text: String) {
        let error = #expect(throws: FleetError.self) { try GPXDocument(parsing: text) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.cause == ErrorCause.malformedLocationFile.id)
    }

    @Test("CSV columns are found by name in any order, quoted fields and km/h speeds are read")
    func readsCSV() throws {
        var decoder = CSVLocationDecoder()
        let samples = decoder.decode(text: #"""
            Time,Speed_kmh,"Longitude",LAT,note
            2024-05-01T08:00:00Z,36,4.89,52.37,"a, quoted ""note"""
            1714550405,,4.891,52.371,
            1714550410000,18,4.892,52.372,x
            """#)
        #expect(samples.count == 3)
        #expect(samples[0].point == GeoPoint(latitude: 52.37, longitude: 4.89))
        #expect(samples[0].speed == 10)
        #expect(samples[1].speed == nil)
        #expect(samples[1].time == Timestamp(seconds: 1_714_550_405))
        #expect(samples[2].time == Timestamp(seconds: 1_714_550_410), "epoch milliseconds")
        #expect(samples[0].sensor == .customerSuppliedLocation)
        #expect(decoder.statistics.bad == 0)
    }

    @Test("Bad CSV rows are counted and skipped; a semicolon file is read too")
    func badCSVRows() {
        var decoder = CSVLocationDecoder()
        let samples = decoder.decode(text: #"""
            lat;lon;heading
            52.37;4.89;90
            52.37;;90
            north;4.89;90
            52.37;4.89;left
            91;4.89;0
            "52.37;4.89;0
            52.38;4.90;
            """#)
        #expect(samples.count == 2)
        #expect(samples[0].heading == 90)
        #expect(decoder.statistics.bad == 5)
        #expect(decoder.statistics.lastProblem?.hasPrefix("row 6") == true)
    }

    @Test("A CSV header without latitude and longitude makes every row bad, and a replay refuses the file")
    func csvWithoutCoordinates() {
        var decoder = CSVLocationDecoder()
        #expect(decoder.decode(text: "x,y\n1,2\n").isEmpty)
        #expect(decoder.headerProblem != nil)
        #expect(decoder.statistics.bad == 1)
        #expect(throws: FleetError.self) { try LocationFeeds.replay(text: "x,y\n1,2\n", format: .csv, name: "t.csv") }
    }

    @Test("JSON Lines read flat objects and Fleet Engine VehicleLocations")
    func readsJSONLines() throws {
        var decoder = JSONLinesLocationDecoder()
        let samples = decoder.decode(text: #"""
            {"lat": 52.37, "lng": 4.89, "time": "2024-05-01T08:00:00Z", "speedKmh": 36, "heading": 90, "accuracy": 4}
            {"location": {"latitude": 52.38, "longitude": 4.9}, "speed": 5, "updateTime": 1714550405000, "locationSensor": "GPS", "altitude": 3}

            """#)
        #expect(samples.count == 2)
        #expect(samples[0].speed == 10)
        #expect(samples[0].horizontalAccuracy == 4)
        #expect(samples[0].sensor == .customerSuppliedLocation)
        #expect(samples[1].point == GeoPoint(latitude: 52.38, longitude: 4.9))
        #expect(samples[1].time == Timestamp(seconds: 1_714_550_405))
        #expect(samples[1].sensor == .gps)
        #expect(samples[1].altitude == 3)
    }

    @Test("Broken JSON lines are counted and skipped",
          arguments: ["{", "[]", #"{"lat": 1}"#, #"{"lat": "north", "lng": 2}"#, #"{"lat": 1, "lng": 2, "time": "noon"}"#,
                      #"{"location": 5}"#, #"{"lat": 1, "lng": 200}"#, #"{"lat": 1, "lng": 2, "speed": true}"#])
    func badJSONLines(line: String) {
        var decoder = JSONLinesLocationDecoder()
        #expect(decoder.decode(line: line).isEmpty)
        #expect(decoder.statistics.bad == 1)
    }

    @Test("Line splitting handles CRLF, CR, LF, partial lines and a last line without break")
    func splitsLines() {
        var splitter = LineSplitter()
        #expect(splitter.append(Array("a\r\nb\rc".utf8)) == ["a", "b"])
        #expect(splitter.append(Array("d\ne\r".utf8)) == ["cd", "e"])
        #expect(splitter.append(Array("\nf".utf8)) == [])
        #expect(splitter.finish() == "f")
        #expect(splitter.finish() == nil)
    }
}
