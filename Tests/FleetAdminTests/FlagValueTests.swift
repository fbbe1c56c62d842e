@testable import fleet_admin
import FleetCLI
import FleetModel
import Testing

/// Parsing what operators type after flags.
@Suite struct FlagValueTests {
    @Test(arguments: [("52.52,13.40", 52.52, 13.40), ("-33.87, 151.21", -33.87, 151.21), (" 0,0 ", 0.0, 0.0), ("1e1,-2.5", 10.0, -2.5)])
    func latLngReadsTwoDecimals(text: String, latitude: Double, longitude: Double) throws {
        #expect(try FlagValue.latLng(text) == LatLng(latitude: latitude, longitude: longitude))
    }

    @Test(arguments: ["52.52", "52.52;13.40", "north,east", "1,2,3", "", ",", "nan,1", "inf,0"])
    func latLngRefusesAnythingElse(text: String) {
        #expect(throws: ArgumentProblem("is not LAT,LNG in decimal degrees (like 52.52,13.40)")) { try FlagValue.latLng(text) }
    }

    @Test func keyValuePairsKeepOrderAndEqualsSignsInValues() throws {
        let pairs = try FlagValue.keyValuePairs("a=1,b=x=y, c =,")
        #expect(pairs.map(\.key) == ["a", "b", "c"])
        #expect(pairs.map(\.value) == ["1", "x=y", ""])
        #expect(try FlagValue.keyValuePairs("").isEmpty)
        #expect(throws: ArgumentProblem.self) { try FlagValue.keyValuePairs("a=1,oops") }
        #expect(throws: ArgumentProblem.self) { try FlagValue.keyValuePairs("=1") }
    }

    @Test func attributesAreStringValues() throws {
        let vehicle: [VehicleAttribute] = try FlagValue.attributes("wheelchair=yes")
        #expect(vehicle == [VehicleAttribute(key: "wheelchair", vehicleAttributeValue: .stringValue("yes"))])
        let trip: [TripAttribute] = try FlagValue.attributes("vip=true")
        #expect(trip == [TripAttribute(key: "vip", tripAttributeValue: .stringValue("true"))])
    }

    @Test(arguments: ["enroute-to-pickup", "ENROUTE_TO_PICKUP", "Enroute to pickup", " enroute_to-PICKUP "])
    func enumValuesInAnySpelling(text: String) throws {
        #expect(try FlagValue.enumValue(text, accepted: Vocabulary.tripStatuses) == .enrouteToPickup)
    }

    @Test func aUniquePrefixIsEnoughAndAnAmbiguousOneIsNot() throws {
        #expect(try FlagValue.enumValue("journey-sharing", accepted: Vocabulary.tripViews) == .journeySharingV1s)
        #expect(try FlagValue.enumValue("two", accepted: Vocabulary.categories) == .twoWheeler)
        #expect(throws: ArgumentProblem.self) { try FlagValue.enumValue("enroute", accepted: Vocabulary.tripStatuses) }
        #expect(throws: ArgumentProblem("is not one of online, offline")) {
            try FlagValue.enumValue("unknown-vehicle-state", accepted: Vocabulary.vehicleStates)
        }
    }

    @Test func enumListsDropRepeats() throws {
        #expect(try FlagValue.enumValues("exclusive, shared,EXCLUSIVE", accepted: Vocabulary.tripTypes) == [.exclusive, .shared])
        #expect(throws: ArgumentProblem("is empty")) { try FlagValue.enumValues(" , ", accepted: Vocabulary.tripTypes) }
    }

    @Test func spellingsAreLowerCaseWithDashes() {
        #expect(FlagValue.spellings(Vocabulary.categories) == ["auto", "taxi", "truck", "two-wheeler", "bicycle", "pedestrian"])
        #expect(FlagValue.spelling(of: SearchVehiclesRequest.VehicleMatchOrder.pickupPointEta) == "pickup-point-eta")
    }

    @Test func declaredFlagsTurnProblemsIntoUsageErrorsNamingTheOption() throws {
        let path = ["fleet-admin", "trips", "create"]
        let trip = try TripFlags(ParsedArguments(commandPath: path, values: ["pickup": ["52.5,13.4"], "stop": ["1,2", "3,4"]]))
        #expect(trip.pickup == LatLng(latitude: 52.5, longitude: 13.4))
        #expect(trip.stops?.count == 2)
        #expect(throws: UsageError("--dropoff: 'x' is not LAT,LNG in decimal degrees (like 52.52,13.40)", commandPath: path)) {
            try TripFlags(ParsedArguments(commandPath: path, values: ["dropoff": ["x"]]))
        }
        #expect(throws: UsageError("--capacity: 99999999999 is out of range (-2147483648…2147483647)", commandPath: path)) {
            try VehicleFlags(ParsedArguments(commandPath: path, values: ["capacity": ["99999999999"]]))
        }
        #expect(VehicleFlags.declarationProblems().isEmpty && TripFlags.declarationProblems().isEmpty)
        #expect(DeliveryVehicleFlags.declarationProblems().isEmpty && TaskFlags.declarationProblems().isEmpty)
    }

    @Test func enumOptionsReadAsTheirTypeAndRefuseOtherValuesNamingTheOption() throws {
        let path = ["fleet-admin", "vehicles", "search"]
        let search = try VehicleCommands.SearchOptions(ParsedArguments(commandPath: path, values: [
            "pickup": ["1,2"], "order-by": ["dropoff-point"], "category": ["taxi,Auto", "taxi"]]))
        #expect(search.orderBy == .dropoffPointEta, "a unique prefix is enough")
        #expect(search.categories == [.taxi, .auto], "lists and repeats, without duplicates")
        #expect(throws: UsageError("--current-trips: 'some' is not one of none, any", commandPath: path)) {
            try VehicleCommands.SearchOptions(ParsedArguments(commandPath: path, values: ["pickup": ["1,2"], "current-trips": ["some"]]))
        }
        let status = ParsedArguments(commandPath: ["fleet-admin", "trips", "status"], values: ["status": ["Enroute to pickup"]])
        #expect(try status.value(TripCommands.statusArgument) == .enrouteToPickup)
    }

    @Test func enumOptionsOfferTheirSpellingsAndOnlyStrictOnesRestrictTheParser() throws {
        let state = try #require(VehicleFlags.options.first { $0.name == "state" })
        #expect(state.completion == .values(["online", "offline"]))
        #expect(state.allowedValues.isEmpty, "any case, dashes or a prefix are accepted, so the parser does not restrict them")
        let category = try #require(RouteCommand.Flags.options.first { $0.name == "category" })
        #expect(category.allowedValues == FlagValue.spellings(Vocabulary.categories))
        #expect(category.defaultValue == "auto")
    }
}
