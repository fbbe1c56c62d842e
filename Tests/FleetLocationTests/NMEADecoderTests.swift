import FleetGeo
import FleetLocation
import FleetModel
import Foundation
import Testing

@Suite("NMEA decoding: GGA, RMC and VTG into samples")
struct NMEADecoderTests {
    static func line(_ body: String) -> String { NMEASentence.line(body: body) }

    @Test("GGA and RMC of one fix make one sample with date, time, speed, course and ellipsoidal altitude")
    func combinesOneFix() throws {
        var decoder = NMEADecoder()
        var samples = decoder.decode(line: Self.line("GPRMC,123519.50,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"))
        #expect(samples.isEmpty)
        samples = decoder.decode(line: Self.line("GPGGA,123519.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        let sample = try #require(samples.first)
        #expect(samples.count == 1)
        #expect(abs(sample.point.latitude - (48 + 7.038 / 60)) < 1e-9)
        #expect(abs(sample.point.longitude - (11 + 31.0 / 60)) < 1e-9)
        #expect(sample.time == (try Timestamp(rfc3339: "1994-03-23T12:35:19.5Z")))
        #expect(abs((sample.speed ?? 0) - 22.4 * 1852 / 3600) < 1e-9)
        #expect(sample.heading == 84.4)
        #expect(abs((sample.altitude ?? 0) - (545.4 + 46.9)) < 1e-9)
        #expect(sample.sensor == .gps)
        #expect(decoder.finish().isEmpty)
        #expect(decoder.statistics.samples == 1)
        #expect(decoder.statistics.bad == 0)
    }

    @Test("Southern and western hemispheres are negative")
    func hemispheres() throws {
        var decoder = NMEADecoder()
        _ = decoder.decode(line: Self.line("GPRMC,095255.810,A,2712.6404,S,15303.1201,W,0.00,0.00,080407,,,A"))
        let sample = try #require(decoder.finish().first)
        #expect(sample.point.latitude < -27.2 && sample.point.latitude > -27.22)
        #expect(sample.point.longitude < -153.05)
    }

    @Test("A fix marked invalid (GGA quality 0, RMC status V, mode N) is skipped and counted as no fix",
          arguments: [
            ["GPGGA,010101,4807.038,N,01131.000,E,0,00,,,M,,M,,"],
            ["GPRMC,010101,V,4807.038,N,01131.000,E,,,230394,,,N"],
            ["GPRMC,010101,A,4807.038,N,01131.000,E,1.0,10.0,230394,,,N"],
            ["GPRMC,010101,A,4807.038,N,01131.000,E,1.0,10.0,230394,,,A", "GPGGA,010101,4807.038,N,01131.000,E,0,00,,,M,,M,,"],
          ])
    func skipsNoFix(bodies: [String]) {
        var decoder = NMEADecoder()
        var samples = bodies.flatMap { decoder.decode(line: Self.line($0)) }
        samples += decoder.finish()
        #expect(samples.isEmpty)
        #expect(decoder.statistics.noFix == 1)
        #expect(decoder.statistics.bad == 0)
    }

    @Test("Broken sentences are skipped and counted; the stream goes on")
    func countsBadSentences() {
        var decoder = NMEADecoder()
        let good = Self.line("GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        let lines = [
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*00",   // bad checksum
            Self.line("GPGGA,123519,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"), // bad latitude
            Self.line("GPRMC,123519,A,4807.038,N,01131.000,E,fast,084.4,230394,,"),     // bad speed
            Self.line("GPRMC,123519,A,4807.038,N,01131.000,E,1,084.4,320394,,"),        // bad date
            Self.line("GPGGA,1235,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),   // bad time
            "\u{0}\u{1}binary junk",
            "# a comment",
            "",
            Self.line("GPGSV,3,1,12,02,15,123,36"),
            good,
        ]
        var samples = lines.flatMap { decoder.decode(line: $0) }
        samples += decoder.finish()
        #expect(samples.count == 1)
        #expect(decoder.statistics.bad == 6)
        #expect(decoder.statistics.ignored == 1)
        #expect(decoder.statistics.lines == 8)
        #expect(decoder.statistics.lastProblem?.contains("line 6") == true)
    }

    @Test("VTG gives the speed (km/h) and course when there is no RMC")
    func vtgSpeed() throws {
        var decoder = NMEADecoder()
        _ = decoder.decode(line: Self.line("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        _ = decoder.decode(line: Self.line("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A"))
        let sample = try #require(decoder.finish().first)
        #expect(abs((sample.speed ?? 0) - 10.2 / 3.6) < 1e-9)
        #expect(sample.heading == 54.7)
        #expect(sample.time == nil, "no date was ever given")
    }

    @Test("A GGA-only fix after an RMC carries the last date seen")
    func lastDateCarries() throws {
        var decoder = NMEADecoder()
        let first = decoder.decode(line: Self.line("GPRMC,235959,A,4807.038,N,01131.000,E,0,0,230394,,"))
        _ = first
        let samples = decoder.decode(line: Self.line("GPGGA,235959.5,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
            + decoder.finish()
        #expect(samples.count == 2)
        #expect(samples.last?.time == (try Timestamp(rfc3339: "1994-03-23T23:59:59.5Z")))
    }

    /// The last valid fix of a log, read without the decoder: the last GGA with quality > 0 or RMC with status A.
    static func lastFix(of text: String) -> GeoPoint? {
        var last: GeoPoint?
        for raw in text.split(whereSeparator: \.isNewline) {
            guard let dollar = raw.lastIndex(of: "$"), let star = raw.lastIndex(of: "*"), star > dollar else { continue }
            let body = raw[raw.index(after: dollar)..<star]
            let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            guard UInt8(raw[raw.index(after: star)...].prefix(2), radix: 16) == checksum else { continue }
            let f = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            func degrees(_ value: String, _ hemisphere: String, _ width: Int) -> Double? {
                guard let number = Double(value) else { return nil }
                let whole = (number / 100).rounded(.down)
                let signed = whole + (number - whole * 100) / 60
                return hemisphere == "S" || hemisphere == "W" ? -signed : signed
            }
            if f[0].hasSuffix("GGA"), f.count > 6, (Int(f[6]) ?? 0) > 0,
               let lat = degrees(f[2], f[3], 2), let lon = degrees(f[4], f[5], 3) {
                last = GeoPoint(latitude: lat, longitude: lon)
            } else if f[0].hasSuffix("RMC"), f.count > 6, f[2] == "A", f.count <= 12 || f[12] != "N",
                      let lat = degrees(f[3], f[4], 2), let lon = degrees(f[5], f[6], 3) {
                last = GeoPoint(latitude: lat, longitude: lon)
            }
        }
        return last
    }

    @Test("Real receiver logs decode to plausible samples ending at the log's last fix", arguments: SharedData.logNames)
    func realLogs(name: String) throws {
        let text = try SharedData.nmeaLog(name)
        var decoder = NMEADecoder()
        let samples = decoder.decode(text: text)
        let expected = try #require(Self.lastFix(of: text), "\(name) has a valid fix")
        let last = try #require(samples.last)
        #expect(samples.allSatisfy { $0.isPlausible })
        #expect(Geodesy.distance(last.point, expected) < 0.5, "last sample \(last.point) vs last fix \(expected)")
        #expect(decoder.statistics.samples == samples.count)
        // Times are the receiver's own: telit-he910.log steps back 0.3 s once, and the decoder keeps what it says.
    }

    @Test("The chartplotter log's depth, wind and heading talkers are ignored, not bad")
    func otherTalkersIgnored() throws {
        var decoder = NMEADecoder()
        _ = decoder.decode(text: try SharedData.nmeaLog("bundg_zeus_9.log"))
        #expect(decoder.statistics.ignored > 1000)
        #expect(decoder.statistics.bad < decoder.statistics.lines / 100)
    }
}
