import FleetErrors
import FleetModel
import Testing

@Suite("Resource names and IDs")
struct ResourceNameTests {
    @Test func parsesAndPrintsEveryKindOfName() throws {
        let vehicle = try VehicleName(parsing: "providers/my-project/vehicles/car-1")
        #expect(vehicle.provider == "my-project")
        #expect(vehicle.vehicleID == "car-1")
        #expect(vehicle.description == "providers/my-project/vehicles/car-1")
        #expect(vehicle.providerName == (try ProviderName(provider: "my-project")))
        let trip = try TripName(parsing: "providers/p/trips/trip 42 é")
        #expect(trip.tripID == "trip 42 é")
        #expect(trip.description == "providers/p/trips/trip 42 é")
        #expect(try ProviderName(parsing: "providers/p").provider == "p")
        let billable = try BillableTripName(parsing: "providers/p/billableTrips/b-1")
        #expect(billable.billableTripID == "b-1")
        #expect(billable.providerName.description == "providers/p")
        #expect(try VehicleName(provider: "p", vehicleID: "v").description == "providers/p/vehicles/v")
        #expect(try TripName(provider: "p", tripID: "t") < (try TripName(provider: "p", tripID: "u")))
        #expect(VehicleName.format == "providers/{provider_id}/vehicles/{vehicle_id}")
        #expect(BillableTripName.format == "providers/{provider_id}/billableTrips/{billable_trip_id}")
    }

    @Test func acceptsSixtyFourCharacterIDs() throws {
        let id = String(repeating: "é", count: 64)
        #expect(try TripName(parsing: "providers/p/trips/\(id)").tripID == id)
    }

    @Test(arguments: [
        ("", "expected 4 segments separated by '/', found 1"),
        ("providers/p/trips", "expected 4 segments separated by '/', found 3"),
        ("providers/p/trips/t/x", "expected 5 segments separated by '/', found 5"),
        ("/providers/p/trips/t", "expected 4 segments separated by '/', found 5"),
        ("providers/p/trips/t/", "expected 4 segments separated by '/', found 5"),
        ("providers/p/vehicles/t", "segment 3 must be \"trips\", found \"vehicles\""),
        ("provider/p/trips/t", "segment 1 must be \"providers\", found \"provider\""),
        ("Providers/p/trips/t", "segment 1 must be \"providers\", found \"Providers\""),
        ("providers/p/Trips/t", "segment 3 must be \"trips\", found \"Trips\""),
        ("providers/p/trips/", "the trip ID \"\" is empty"),
        ("providers//trips/t", "the provider ID \"\" is empty"),
        ("providers/p/trips/a:b", "the trip ID \"a:b\" contains ':'; none of / : ? , # are allowed"),
        ("providers/p/trips/a?b", "the trip ID \"a?b\" contains '?'; none of / : ? , # are allowed"),
        ("providers/p/trips/a,b", "the trip ID \"a,b\" contains ','; none of / : ? , # are allowed"),
        ("providers/p/trips/a#b", "the trip ID \"a#b\" contains '#'; none of / : ? , # are allowed"),
        ("providers/p:q/trips/t", "the provider ID \"p:q\" contains ':'; none of / : ? , # are allowed"),
        ("providers/p/trips/e\u{301}", "the trip ID \"e\u{301}\" is not in Unicode Normalization Form C (NFC)"),
        ("providers/p/trips/\(String(repeating: "x", count: 65))", "the trip ID \"\(String(repeating: "x", count: 65))\" is 65 characters long; at most 64 are allowed"),
    ])
    func rejectsBadTripNames(text: String, reason: String) throws {
        let error = try #require(throws: FleetError.self) { try TripName(parsing: text, field: "name") }
        #expect(error.code == .invalidArgument)
        #expect(error.cause == ErrorCause.badTripName.id)
        #expect(error.field == "name")
        if text == "providers/p/trips/t/x" {
            #expect(error.message.contains("expected 4 segments separated by '/', found 5"))
        } else {
            #expect(error.message == "\(ErrorCause.badTripName.summary): received \(JSON.string(text).serialized()): \(reason)")
        }
    }

    @Test func eachNameKindHasItsOwnCause() throws {
        let vehicle = try #require(throws: FleetError.self) { try VehicleName(parsing: "providers/p/trips/t", field: "vehicle.name") }
        #expect(vehicle.cause == ErrorCause.badVehicleName.id)
        #expect(vehicle.field == "vehicle.name")
        #expect(vehicle.message.contains("providers/{provider_id}/vehicles/{vehicle_id}"))
        let provider = try #require(throws: FleetError.self) { try ProviderName(parsing: "providers/p/x", field: "parent") }
        #expect(provider.cause == ErrorCause.badProviderName.id)
        #expect(provider.field == "parent")
        let billable = try #require(throws: FleetError.self) { try BillableTripName(parsing: "providers/p/trips/t") }
        #expect(billable.cause == ErrorCause.badBillableTripName.id)
        #expect(billable.code == .invalidArgument)
    }

    @Test(arguments: ["", "a/b", "a:b", "a?b", "a,b", "a#b", "e\u{301}", String(repeating: "v", count: 65)])
    func memberwiseInitializersValidateToo(id: String) throws {
        let error = try #require(throws: FleetError.self) { try VehicleName(provider: "p", vehicleID: id) }
        #expect(error.cause == ErrorCause.badVehicleName.id)
        #expect(throws: FleetError.self) { try TripName(provider: id, tripID: "t") }
        #expect(throws: FleetError.self) { try ProviderName(provider: id) }
        #expect(throws: FleetError.self) { try BillableTripName(provider: "p", billableTripID: id) }
    }

    @Test func standaloneIDsUseTheBadIDCause() throws {
        try ResourceID.validate("car-7", field: "vehicleId")
        #expect(ResourceID.isValid("\u{E9}"))  // precomposed é is NFC
        #expect(!ResourceID.isValid("e\u{301}"))
        let error = try #require(throws: FleetError.self) { try ResourceID.validate("a/b", field: "vehicleId") }
        #expect(error.cause == ErrorCause.badID.id)
        #expect(error.field == "vehicleId")
        #expect(error.message.contains("vehicleId \"a/b\" contains '/'"))
    }
}
