import FleetErrors
import FleetLocation
import Testing

@Suite("--source values")
struct SourceSpecTests {
    @Test("Every documented form parses", arguments: [
        ("gpsd://localhost:2947", LocationSourceSpec.gpsd(host: "localhost", port: 2947)),
        ("gpsd://10.0.0.5", .gpsd(host: "10.0.0.5", port: 2947)),
        ("gpsd://", .gpsd(host: "localhost", port: 2947)),
        ("gpsd://[::1]:3000", .gpsd(host: "::1", port: 3000)),
        ("nmea:/var/log/gps.log", .file(.nmea, path: "/var/log/gps.log")),
        ("nmea:-", .file(.nmea, path: "-")),
        ("gpx:track.gpx", .file(.gpx, path: "track.gpx")),
        ("CSV:drive.csv", .file(.csv, path: "drive.csv")),
        ("jsonl:-", .file(.jsonl, path: "-")),
        ("simulate:route.geojson", .simulate(.file("route.geojson"))),
        ("simulate:polyline:_p~iF~ps|U", .simulate(.polyline("_p~iF~ps|U"))),
    ])
    func parses(text: String, spec: LocationSourceSpec) throws {
        #expect(try LocationSourceSpec(parsing: text) == spec)
    }

    @Test("Unknown kinds, empty paths and bad ports are refused with the accepted forms",
          arguments: ["serial:/dev/ttyUSB0", "nmea:", "track.gpx", "gpsd://host:99999", "gpsd://host:port", "simulate:", "simulate:polyline:"])
    func refuses(text: String) {
        let error = #expect(throws: FleetError.self) { try LocationSourceSpec(parsing: text) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("Only gpsd never ends by itself")
    func finiteness() throws {
        #expect(try !LocationSourceSpec(parsing: "gpsd://").isFinite)
        #expect(try LocationSourceSpec(parsing: "nmea:-").isFinite)
        #expect(try LocationSourceSpec(parsing: "gpsd://[::1]:3000").description == "gpsd://[::1]:3000")
    }
}
