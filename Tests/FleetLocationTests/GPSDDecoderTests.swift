import FleetLocation
import FleetModel
import Testing

@Suite("gpsd JSON reports")
struct GPSDDecoderTests {
    @Test("A 3D TPV becomes a sample with time, altitude, speed, track and accuracies")
    func tpvFix() throws {
        var decoder = GPSDDecoder()
        let samples = decoder.decode(line: #"{"class":"TPV","device":"/dev/pts/3","mode":3,"time":"2026-11-22T09:54:00.790Z","ept":0.005,"lat":-27.210765,"lon":153.051888333,"altHAE":45.7,"altMSL":3.5,"alt":3.5,"epx":12.9,"epy":10.4,"epv":55.2,"track":7.8,"speed":1.235,"eps":12.94,"eph":34.2}"#)
        let sample = try #require(samples.first)
        #expect(sample.point.latitude == -27.210765)
        #expect(sample.point.longitude == 153.051888333)
        #expect(sample.time == (try Timestamp(rfc3339: "2026-11-22T09:54:00.790Z")))
        #expect(sample.altitude == 45.7)
        #expect(sample.speed == 1.235)
        #expect(sample.heading == 7.8)
        #expect(sample.horizontalAccuracy == 34.2)
        #expect(sample.verticalAccuracy == 55.2)
        #expect(sample.speedAccuracy == 12.94)
        #expect(decoder.statistics.samples == 1)
    }

    @Test("A 2D fix has no altitude; without eph the larger of epx and epy is the accuracy")
    func twoDimensional() throws {
        var decoder = GPSDDecoder()
        let sample = try #require(decoder.decode(line: #"{"class":"TPV","mode":2,"lat":1.5,"lon":2.5,"alt":99,"epx":3,"epy":7}"#).first)
        #expect(sample.altitude == nil)
        #expect(sample.horizontalAccuracy == 7)
    }

    @Test("Mode below 2, or a TPV still without a position, is no fix; other classes are ignored",
          arguments: [
            (#"{"class":"TPV","mode":1,"lat":1,"lon":2}"#, "noFix"),
            (#"{"class":"TPV","mode":0}"#, "noFix"),
            (#"{"class":"TPV","device":"/dev/pts/3","mode":3,"epv":55.2,"eph":20.9}"#, "noFix"),
            (#"{"class":"SKY","satellites":[]}"#, "ignored"),
            (#"{"class":"VERSION","release":"3.22"}"#, "ignored"),
            (#"{"class":"ERROR","message":"unrecognized request"}"#, "ignored"),
          ])
    func noSample(line: String, counter: String) {
        var decoder = GPSDDecoder()
        #expect(decoder.decode(line: line).isEmpty)
        #expect(counter == "noFix" ? decoder.statistics.noFix == 1 : decoder.statistics.ignored == 1)
        #expect(decoder.statistics.bad == 0)
    }

    @Test("Lines that are not gpsd reports, and TPVs out of range, are bad",
          arguments: ["not json", "[1,2]", #"{"mode":3}"#, #"{"class":"TPV","mode":3,"lat":91,"lon":0}"#,
                      #"{"class":"TPV","mode":3,"lat":1,"lon":2,"time":"yesterday"}"#])
    func bad(line: String) {
        var decoder = GPSDDecoder()
        #expect(decoder.decode(line: line).isEmpty)
        #expect(decoder.statistics.bad == 1)
        #expect(decoder.statistics.lastProblem != nil)
    }

    @Test("The last ERROR report is kept")
    func keepsServerError() {
        var decoder = GPSDDecoder()
        _ = decoder.decode(line: #"{"class":"ERROR","message":"unrecognized request"}"#)
        #expect(decoder.lastServerError == "unrecognized request")
    }
}
