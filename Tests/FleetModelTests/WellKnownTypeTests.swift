import FleetErrors
import FleetModel
import Foundation
import Testing

@Suite("Timestamp")
struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0, 0, "1970-01-01T00:00:00Z"),
        ("2024-05-01T12:30:00.250Z", 1_714_566_600, 250_000_000, "2024-05-01T12:30:00.250Z"),
        ("2024-05-01T12:30:00.25Z", 1_714_566_600, 250_000_000, "2024-05-01T12:30:00.250Z"),
        ("2024-05-01T12:30:00.000001Z", 1_714_566_600, 1_000, "2024-05-01T12:30:00.000001Z"),
        ("2024-05-01T12:30:00.1234567Z", 1_714_566_600, 123_456_700, "2024-05-01T12:30:00.123456700Z"),
        ("2024-05-01T12:30:00.123456789Z", 1_714_566_600, 123_456_789, "2024-05-01T12:30:00.123456789Z"),
        ("2024-05-01T12:30:00.000Z", 1_714_566_600, 0, "2024-05-01T12:30:00Z"),
        ("2024-05-01T14:30:00+02:00", 1_714_566_600, 0, "2024-05-01T12:30:00Z"),
        ("2024-05-01T07:00:00-05:30", 1_714_566_600, 0, "2024-05-01T12:30:00Z"),
        ("2024-05-01t12:30:00z", 1_714_566_600, 0, "2024-05-01T12:30:00Z"),
        ("2024-02-29T23:59:59Z", 1_709_251_199, 0, "2024-02-29T23:59:59Z"),
        ("1969-12-31T23:59:59.5Z", -1, 500_000_000, "1969-12-31T23:59:59.500Z"),
        ("0001-01-01T00:00:00Z", -62_135_596_800, 0, "0001-01-01T00:00:00Z"),
        ("9999-12-31T23:59:59.999999999Z", 253_402_300_799, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
        ("0001-01-01T01:00:00+01:00", -62_135_596_800, 0, "0001-01-01T00:00:00Z"),
    ] as [(String, Int64, Int32, String)])
    func parsesAndFormatsLikeProtobuf(text: String, seconds: Int64, nanos: Int32, formatted: String) throws {
        let timestamp = try Timestamp(rfc3339: text)
        #expect(timestamp == Timestamp(seconds: seconds, nanos: nanos))
        #expect(timestamp.rfc3339String == formatted)
        #expect(timestamp.protoJSON == .string(formatted))
        #expect(try Timestamp(rfc3339: formatted) == timestamp)
        #expect(timestamp.isValid)
    }

    @Test(arguments: [
        "", "2024-05-01", "2024-05-01T12:30:00", "2024-05-01 12:30:00Z", "2024-5-01T12:30:00Z",
        "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:30:60Z", "2024-05-01T12:30:00.Z",
        "2024-05-01T12:30:00.1234567890Z", "2024-05-01T12:30:00+0200", "2024-05-01T12:30:00+24:00",
        "0000-12-31T23:59:59Z", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01", "10000-01-01T00:00:00Z",
        "2024-05-01T12:30:00Zjunk", " 2024-05-01T12:30:00Z",
    ])
    func rejectsMalformedOrOutOfRangeText(text: String) {
        #expect(throws: FleetError.self) { try Timestamp(rfc3339: text) }
        #expect(throws: FleetError.self) { try Timestamp(protoJSON: .string(text), path: "trip.pickupTime") }
    }

    @Test func errorsNameTheField() throws {
        let error = try #require(throws: FleetError.self) {
            try Timestamp(protoJSON: .string("yesterday"), path: "vehicle.lastLocation.updateTime")
        }
        #expect(error.code == .invalidArgument)
        #expect(error.field == "vehicle.lastLocation.updateTime")
        #expect(error.message.contains("'vehicle.lastLocation.updateTime'"))
        #expect(error.message.contains("\"yesterday\""))
        let direct = try #require(throws: FleetError.self) { try Timestamp(rfc3339: "x", field: "waypointsVersion") }
        #expect(direct.field == "waypointsVersion")
        #expect(throws: FleetError.self) { try Timestamp(protoJSON: 1_700_000_000, path: "t") }
    }

    @Test func normalizesNanosAndOrders() {
        #expect(Timestamp(seconds: 10, nanos: 1_500_000_000) == Timestamp(seconds: 11, nanos: 500_000_000))
        #expect(Timestamp(seconds: 10, nanos: -1) == Timestamp(seconds: 9, nanos: 999_999_999))
        #expect(Timestamp(seconds: 1, nanos: 5) < Timestamp(seconds: 1, nanos: 6))
        #expect(Timestamp(seconds: -1, nanos: 999_999_999) < Timestamp(seconds: 0))
        #expect(!Timestamp(seconds: Timestamp.maxSeconds + 1).isValid)
    }

    @Test func convertsToAndFromDate() {
        let date = Date(timeIntervalSince1970: 1_714_566_600.25)
        let timestamp = Timestamp(date: date)
        #expect(timestamp == Timestamp(seconds: 1_714_566_600, nanos: 250_000_000))
        #expect(timestamp.date == date)
        #expect(timestamp.timeIntervalSince1970 == 1_714_566_600.25)
        #expect(Timestamp(timeIntervalSince1970: -0.5) == Timestamp(seconds: -1, nanos: 500_000_000))
    }

    @Test func arithmetic() {
        let start = Timestamp(seconds: 100, nanos: 900_000_000)
        #expect(start.adding(seconds: 0.2) == Timestamp(seconds: 101, nanos: 100_000_000))
        #expect(start.adding(seconds: -1.9) == Timestamp(seconds: 99))
        #expect(start.adding(seconds: 86_400) == Timestamp(seconds: 86_500, nanos: 900_000_000))
        #expect(start.adding(ProtoDuration(seconds: -1, nanos: -950_000_000)) == Timestamp(seconds: 98, nanos: 950_000_000))
        let later = Timestamp(seconds: 130, nanos: 400_000_000)
        #expect(later.timeIntervalSince(start) == 29.5)
        #expect(later.duration(since: start) == ProtoDuration(seconds: 29, nanos: 500_000_000))
        #expect(start.duration(since: later) == ProtoDuration(seconds: -29, nanos: -500_000_000))
    }
}

@Suite("ProtoDuration")
struct ProtoDurationTests {
    @Test(arguments: [
        ("0s", 0, 0, "0s"), ("12.5s", 12, 500_000_000, "12.500s"), ("-3s", -3, 0, "-3s"),
        ("0.000000001s", 0, 1, "0.000000001s"), ("-0.5s", 0, -500_000_000, "-0.500s"),
        ("1.000001s", 1, 1_000, "1.000001s"), ("1.1234s", 1, 123_400_000, "1.123400s"),
        ("315576000000s", 315_576_000_000, 0, "315576000000s"), ("-315576000000.999999999s", -315_576_000_000, -999_999_999, "-315576000000.999999999s"),
        ("0.0s", 0, 0, "0s"),
    ] as [(String, Int64, Int32, String)])
    func parsesAndFormatsLikeProtobuf(text: String, seconds: Int64, nanos: Int32, formatted: String) throws {
        let duration = try ProtoDuration(parsing: text)
        #expect(duration.seconds == seconds)
        #expect(duration.nanos == nanos)
        #expect(duration.formatted == formatted)
        #expect(duration.protoJSON == .string(formatted))
        #expect(try ProtoDuration(parsing: formatted) == duration)
        #expect(duration.isValid)
    }

    @Test(arguments: ["", "s", "12", "12.s", ".5s", "1.5 s", "+1s", "--1s", "1.1234567891s", "315576000001s", "1e3s", "12.5S", "12.5ms"])
    func rejectsMalformedText(text: String) throws {
        #expect(throws: FleetError.self) { try ProtoDuration(parsing: text) }
        let error = try #require(throws: FleetError.self) { try ProtoDuration(protoJSON: .string(text), path: "request.maximumStaleness") }
        #expect(error.field == "request.maximumStaleness")
    }

    @Test func rejectsNumbers() {
        #expect(throws: FleetError.self) { try ProtoDuration(protoJSON: 12.5, path: "d") }
    }

    @Test func conversions() {
        #expect(ProtoDuration(timeInterval: 1.25) == ProtoDuration(seconds: 1, nanos: 250_000_000))
        #expect(ProtoDuration(timeInterval: -0.75) == ProtoDuration(seconds: 0, nanos: -750_000_000))
        #expect(ProtoDuration(seconds: 2, nanos: -500_000_000) == ProtoDuration(seconds: 1, nanos: 500_000_000))
        #expect(ProtoDuration(seconds: -2, nanos: 500_000_000) == ProtoDuration(seconds: -1, nanos: -500_000_000))
        #expect(ProtoDuration(seconds: 3, nanos: 250_000_000).timeInterval == 3.25)
        #expect(ProtoDuration(.milliseconds(1500)) == ProtoDuration(seconds: 1, nanos: 500_000_000))
        #expect(ProtoDuration(seconds: 1, nanos: 500_000_000).swiftDuration == .milliseconds(1500))
        #expect(ProtoDuration(seconds: -1) < ProtoDuration(seconds: 0, nanos: -500_000_000))
        #expect(ProtoDuration(seconds: 5).description == "5s")
    }
}

@Suite("FieldMask")
struct FieldMaskTests {
    @Test func parsesCommaSeparatedPathsAndConvertsSnakeCase() throws {
        let mask = try FieldMask(parsing: "vehicle_state, lastLocation.update_time,attributes")
        #expect(mask.paths == ["vehicleState", "lastLocation.updateTime", "attributes"])
        #expect(mask.description == "vehicleState,lastLocation.updateTime,attributes")
        #expect(mask.protoJSON == "vehicleState,lastLocation.updateTime,attributes")
        #expect(mask.topLevelFields == ["vehicleState", "lastLocation", "attributes"])
        #expect(mask.covers("lastLocation.updateTime"))
        #expect(!mask.covers("lastLocation"))
        #expect(FieldMask(["lastLocation"]).covers("lastLocation.location.latitude"))
        #expect(!FieldMask(["last"]).covers("lastLocation"))
    }

    @Test func emptyStringIsTheEmptyMask() throws {
        #expect(try FieldMask(parsing: "").isEmpty)
        #expect(try FieldMask(protoJSON: "", path: "updateMask").isEmpty)
        #expect(FieldMask().protoJSON == "")
    }

    /// `a.___`, `___` and `a._1` are found by `make fuzz` (messages target): snake_case segments whose
    /// camelCase form is empty or starts with a digit, which were accepted and then written as masks
    /// that do not parse.
    @Test(arguments: ["a,,b", ",a", "a,", "a..b", ".a", "a.", "a b", "1a", "a-b", "a/b", "a.___", "___", "a._1", "trip_status.___"])
    func rejectsMalformedMasks(text: String) throws {
        let error = try #require(throws: FleetError.self) { try FieldMask(parsing: text, field: "updateMask") }
        #expect(error.code == .invalidArgument)
        #expect(error.field == "updateMask")
        #expect(throws: FleetError.self) { try FieldMask(protoJSON: .string(text), path: "updateMask") }
    }

    @Test func camelCaseConversion() {
        #expect(FieldMask.camelCase("current_route_segment_end_point") == "currentRouteSegmentEndPoint")
        #expect(FieldMask.camelCase("last_location.raw_location_time") == "lastLocation.rawLocationTime")
        #expect(FieldMask.camelCase("alreadyCamel") == "alreadyCamel")
        #expect(FieldMask(["trip_status"]) == ["tripStatus"])
    }
}

@Suite("LatLng")
struct LatLngTests {
    @Test func alwaysWritesBothCoordinates() throws {
        #expect(LatLng().toJSON() == ["latitude": 0, "longitude": 0])
        let point = LatLng(latitude: 37.4219983, longitude: -122.084)
        #expect(point.jsonString() == #"{"latitude":37.4219983,"longitude":-122.084}"#)
        #expect(try LatLng(jsonString: #"{"latitude":37.4219983,"longitude":-122.084}"#) == point)
        #expect(try LatLng(jsonString: #"{"latitude":"1.5"}"#) == LatLng(latitude: 1.5, longitude: 0))
        #expect(try LatLng(jsonString: #"{"latitude":null,"longitude":"Infinity"}"#) == LatLng(latitude: 0, longitude: .infinity))
    }
}

/// Computed values (distances, ETAs) become message fields without trapping, whatever a request made of them.
@Suite("Saturating conversions")
struct SaturatingConversionTests {
    @Test func int32RoundsAndClamps() {
        #expect(Int32(roundingClamped: 12.5) == 13)
        #expect(Int32(roundingClamped: -12.5) == -13)
        #expect(Int32(roundingClamped: 2_400_000_000) == .max)
        #expect(Int32(roundingClamped: -1e300) == .min)
        #expect(Int32(roundingClamped: .infinity) == .max)
        #expect(Int32(roundingClamped: .nan) == 0)
    }

    @Test func durationsClampToProtobufsLimit() {
        #expect(ProtoDuration(timeInterval: 1.25) == ProtoDuration(seconds: 1, nanos: 250_000_000))
        #expect(ProtoDuration(timeInterval: .infinity) == ProtoDuration(seconds: ProtoDuration.maxSeconds))
        #expect(ProtoDuration(timeInterval: -1e300) == ProtoDuration(seconds: -ProtoDuration.maxSeconds))
        #expect(ProtoDuration(timeInterval: .nan) == .zero)
    }

    @Test func timestampsClampToTheValidRange() {
        let now = Timestamp(seconds: 1_714_566_600)
        #expect(now.adding(seconds: 1.5) == Timestamp(seconds: 1_714_566_601, nanos: 500_000_000))
        #expect(now.adding(seconds: .infinity) == Timestamp(seconds: Timestamp.maxSeconds))
        #expect(now.adding(seconds: 1e18) == Timestamp(seconds: Timestamp.maxSeconds))
        #expect(now.adding(seconds: -1e18) == Timestamp(seconds: Timestamp.minSeconds))
        #expect(now.adding(seconds: .nan) == now)
        #expect(Timestamp(timeIntervalSince1970: 1e300) == Timestamp(seconds: Timestamp.maxSeconds))
        #expect(Timestamp(timeIntervalSince1970: -.infinity) == Timestamp(seconds: Timestamp.minSeconds))
        #expect(Timestamp(timeIntervalSince1970: .nan) == .unixEpoch)
    }
}
