import FleetErrors
import FleetModel
import Testing

@Suite("Proto3 JSON scalars")
struct ProtoScalarTests {
    @Test func int32AcceptsNumbersAndDecimalStrings() throws {
        #expect(try Int32(protoJSON: 42, path: "x") == 42)
        #expect(try Int32(protoJSON: 42.0, path: "x") == 42)
        #expect(try Int32(protoJSON: "-17", path: "x") == -17)
        #expect(try Int32(protoJSON: .number(Double(Int32.max)), path: "x") == .max)
        #expect(try Int32(protoJSON: .string("-2147483648"), path: "x") == .min)
        #expect(Int32(7).protoJSON == 7)
    }

    @Test(arguments: [JSON.number(1.5), .number(2_147_483_648), .number(-2_147_483_649), .string("1.0"), .string("1e3"),
                      .string(" 1"), .string("+1"), .string(""), .string("0x10"), .bool(true), .array([1]), .object([:])])
    func int32RejectsOtherValues(json: JSON) throws {
        let error = try #require(throws: FleetError.self) { try Int32(protoJSON: json, path: "vehicle.maximumCapacity") }
        #expect(error.code == .invalidArgument)
        #expect(error.field == "vehicle.maximumCapacity")
        #expect(error.message.hasPrefix("Invalid JSON payload received. Invalid value at 'vehicle.maximumCapacity' (TYPE_INT32)"))
    }

    @Test func int64IsWrittenAsAString() throws {
        #expect(Int64(9_007_199_254_740_993).protoJSON == "9007199254740993")
        #expect(try Int64(protoJSON: "9223372036854775807", path: "x") == .max)
        #expect(try Int64(protoJSON: "-9223372036854775808", path: "x") == .min)
        #expect(try Int64(protoJSON: 12, path: "x") == 12)
        #expect(try UInt64(protoJSON: "18446744073709551615", path: "x") == .max)
        #expect(UInt64.max.protoJSON == "18446744073709551615")
    }

    @Test(arguments: [JSON.number(9_007_199_254_740_994), .string("9223372036854775808"), .string("12.0"), .number(0.5), .bool(false)])
    func int64RejectsInexactOrMalformedValues(json: JSON) {
        #expect(throws: FleetError.self) { try Int64(protoJSON: json, path: "totalSize") }
    }

    @Test func uint64RejectsNegatives() {
        #expect(throws: FleetError.self) { try UInt64(protoJSON: "-1", path: "x") }
        #expect(throws: FleetError.self) { try UInt64(protoJSON: -1, path: "x") }
        #expect(throws: FleetError.self) { try UInt64(protoJSON: "+1", path: "x") }
    }

    @Test func doublesAcceptNumbersNumericStringsAndSpecialNames() throws {
        #expect(try Double(protoJSON: 1.25, path: "x") == 1.25)
        #expect(try Double(protoJSON: "1.25", path: "x") == 1.25)
        #expect(try Double(protoJSON: "-1e3", path: "x") == -1000)
        #expect(try Double(protoJSON: "NaN", path: "x").isNaN)
        #expect(try Double(protoJSON: "Infinity", path: "x") == .infinity)
        #expect(try Double(protoJSON: "-Infinity", path: "x") == -.infinity)
        #expect(Double.nan.protoJSON == "NaN")
        #expect(Double.infinity.protoJSON == "Infinity")
        #expect((-Double.infinity).protoJSON == "-Infinity")
        #expect(2.5.protoJSON == 2.5)
        for bad: JSON in ["nan", "inf", "1.2.3", "", true, [1]] {
            #expect(throws: FleetError.self) { try Double(protoJSON: bad, path: "x") }
        }
    }

    @Test func floatsUseTheirShortestForm() throws {
        #expect(Float(0.1).protoJSON == 0.1)
        #expect(Float(87.3).protoJSON.serialized() == "87.3")
        #expect(try Float(protoJSON: 87.3, path: "x") == Float(87.3))
        #expect(try Float(protoJSON: "Infinity", path: "x") == .infinity)
        #expect(throws: FleetError.self) { try Float(protoJSON: 1e39, path: "batteryInfo.batteryPercentage") }
        #expect(try Float(protoJSON: 3.4028235e38, path: "x") == .greatestFiniteMagnitude)  // as Google writes FLT_MAX
    }

    @Test func stringsAndBoolsAreStrict() {
        #expect(throws: FleetError.self) { try String(protoJSON: 1, path: "x") }
        #expect(throws: FleetError.self) { try Bool(protoJSON: "true", path: "x") }
        #expect(throws: FleetError.self) { try Bool(protoJSON: 1, path: "x") }
    }
}

@Suite("Proto enums")
struct ProtoEnumTests {
    @Test func knownValuesHaveNamesAndNumbers() {
        #expect(TripStatus.enrouteToPickup.name == "ENROUTE_TO_PICKUP")
        #expect(TripStatus.enrouteToPickup.number == 2)
        #expect(TripStatus.enrouteToIntermediateDestination.number == 8)
        #expect(LocationSensor.coreLocation.number == 200)
        #expect(TripStatus.defaultValue == .unknownTripStatus)
        #expect(TripStatus.allKnown.count == 9)
        #expect(VehicleType.Category.twoWheeler.name == "TWO_WHEELER")
        #expect(SearchVehiclesRequest.CurrentTripsPresent.noTrips.name == "NONE")
        #expect(TripStatus.new.description == "NEW")
        #expect(TripStatus.protoEnumName == "maps.fleetengine.v1.TripStatus")
    }

    @Test func decodesNamesNumbersAndNumericStrings() throws {
        #expect(try TripStatus(protoJSON: "COMPLETE", path: "t") == .complete)
        #expect(try TripStatus(protoJSON: 5, path: "t") == .complete)
        #expect(try TripStatus(protoJSON: "5", path: "t") == .complete)
        #expect(TripStatus(number: 6) == .canceled)
    }

    @Test func keepsUnknownNamesAndNumbers() throws {
        let future = try TripStatus(protoJSON: "ARRIVED_AT_MOON", path: "trip.tripStatus")
        #expect(future.name == "ARRIVED_AT_MOON")
        #expect(future.number == nil)
        #expect(!future.isKnown)
        #expect(future.protoJSON == "ARRIVED_AT_MOON")
        let numbered = try TripStatus(protoJSON: 42, path: "trip.tripStatus")
        #expect(numbered.name == "42")
        #expect(numbered.number == 42)
        #expect(numbered.protoJSON == 42)
        #expect(numbered == TripStatus(number: 42))
    }

    @Test(arguments: [JSON.string(""), .string("lower case"), .string("NEW!"), .number(1.5), .number(3e10), .bool(true), .null])
    func rejectsValuesThatCannotBeEnumValues(json: JSON) throws {
        let error = try #require(throws: FleetError.self) { try TripStatus(protoJSON: json, path: "trip.tripStatus") }
        #expect(error.field == "trip.tripStatus")
        #expect(error.message.contains("TYPE_ENUM maps.fleetengine.v1.TripStatus"))
        #expect(error.message.contains("ENROUTE_TO_PICKUP"))
    }

    @Test(arguments: TripStatus.allKnown + [TripStatus(name: "FUTURE")])
    func worksInSwitchStatements(status: TripStatus) {
        let summary: String
        switch status {
        case .new: summary = "new"
        case .enrouteToPickup, .arrivedAtPickup: summary = "pickup"
        case .complete, .canceled: summary = "terminal"
        case .unknownTripStatus: summary = "unknown"
        default: summary = "other"
        }
        let expected = switch status.name {
        case "NEW": "new"
        case "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP": "pickup"
        case "COMPLETE", "CANCELED": "terminal"
        case "UNKNOWN_TRIP_STATUS": "unknown"
        default: "other"
        }
        #expect(summary == expected)
    }

    @Test func optionalEnumsCompareAndSwitch() {
        let state: VehicleState? = .online
        #expect(state == .online)
        #expect(state != .offline)
        var matched = false
        if case .online? = state { matched = true }
        #expect(matched)
    }
}
