import FleetEngine
import FleetErrors
import FleetModel
import Testing

/// Values proto3 JSON decodes but that mean nothing (NaN, ±Infinity, enum numbers no value has) are
/// refused by every call, INVALID_ARGUMENT naming the field, and nothing is stored.
@Suite struct RequestValueTests {
    private func expectRefused(_ field: String, containing phrase: String, _ body: () throws -> Void) {
        let error = #expect(throws: FleetError.self) { try body() }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == field, "\(error?.message ?? "")")
        #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity"])
    func updateVehicleRefusesANonFiniteSpeedAndAccuracy(text: String) throws {
        let f = Fixture()
        try f.createVehicle("v1")
        for field in ["speed", "horizontalAccuracy", "latlngAccuracy", "altitude", "rawLocationAccuracy"] {
            let request = try UpdateVehicleRequest(jsonString: """
                {"name": "\(f.vehicleName("v1"))", "updateMask": "lastLocation",
                 "vehicle": {"lastLocation": {"location": {"latitude": 52.5, "longitude": 13.4}, "\(field)": "\(text)"}}}
                """)
            expectRefused("vehicle.lastLocation.\(field)", containing: "must be a finite number, got \(text)") {
                _ = try f.engine.updateVehicle(request)
            }
        }
        #expect(try f.vehicle("v1").lastLocation?.speed == nil)
    }

    @Test func createVehicleRefusesAnUnknownStateNumberAndANaNAttribute() throws {
        let f = Fixture()
        let unknownState = try CreateVehicleRequest(jsonString: """
            {"parent": "\(f.parent)", "vehicleId": "v1",
             "vehicle": {"vehicleState": 99, "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"}}}
            """)
        expectRefused("vehicle.vehicleState", containing: "has no value 99") { _ = try f.engine.createVehicle(unknownState) }
        let unknownCategory = try CreateVehicleRequest(jsonString: """
            {"parent": "\(f.parent)", "vehicleId": "v1",
             "vehicle": {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": {"category": 17}}}
            """)
        expectRefused("vehicle.vehicleType.category", containing: "has no value 17") { _ = try f.engine.createVehicle(unknownCategory) }
        let nanAttribute = try CreateVehicleRequest(jsonString: """
            {"parent": "\(f.parent)", "vehicleId": "v1",
             "vehicle": {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"},
                         "attributes": [{"key": "a", "stringValue": "x"}, {"key": "b", "numberValue": "Infinity"}]}}
            """)
        expectRefused("vehicle.attributes[1].numberValue", containing: "got Infinity") { _ = try f.engine.createVehicle(nanAttribute) }
        #expect(throws: FleetError.self) { _ = try f.vehicle("v1") }
    }

    @Test func updateVehicleRefusesAnUnknownStateNumber() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        let request = try UpdateVehicleRequest(jsonString: """
            {"name": "\(f.vehicleName("v1"))", "updateMask": "vehicleState", "vehicle": {"vehicleState": 99}}
            """)
        expectRefused("vehicle.vehicleState", containing: "has no value 99") { _ = try f.engine.updateVehicle(request) }
        #expect(try f.vehicle("v1").vehicleState == .online)
    }

    @Test(arguments: ["low.latitude", "low.longitude", "high.latitude", "high.longitude"])
    func listVehiclesRefusesANaNViewport(corner: String) throws {
        let f = Fixture()
        try f.createVehicle("v1")
        var viewport: [String: String] = ["low.latitude": "52", "low.longitude": "13", "high.latitude": "53", "high.longitude": "14"]
        viewport[corner] = #""NaN""#
        let request = try ListVehiclesRequest(jsonString: """
            {"parent": "\(f.parent)", "vehicleTypeCategories": ["AUTO"],
             "viewport": {"low": {"latitude": \(viewport["low.latitude"]!), "longitude": \(viewport["low.longitude"]!)},
                          "high": {"latitude": \(viewport["high.latitude"]!), "longitude": \(viewport["high.longitude"]!)}}}
            """)
        expectRefused("viewport.\(corner)", containing: "must be a finite number, got NaN") { _ = try f.engine.listVehicles(request) }
    }

    @Test func tripCallsRefuseUnknownEnumNumbers() throws {
        let f = Fixture()
        let create = try CreateTripRequest(jsonString: """
            {"parent": "\(f.parent)", "tripId": "t1",
             "trip": {"tripType": 7, "pickupPoint": {"point": {"latitude": 52.5, "longitude": 13.4}}}}
            """)
        expectRefused("trip.tripType", containing: "has no value 7") { _ = try f.engine.createTrip(create) }
        try f.createTrip("t1")
        let get = try GetTripRequest(jsonString: #"{"name": "\#(f.tripName("t1"))", "view": 42}"#)
        expectRefused("view", containing: "has no value 42") { _ = try f.engine.getTrip(get) }
        let header = try UpdateTripRequest(jsonString: """
            {"name": "\(f.tripName("t1"))", "updateMask": "tripStatus", "header": {"platform": 9},
             "trip": {"tripStatus": "ENROUTE_TO_PICKUP"}}
            """)
        expectRefused("header.platform", containing: "has no value 9") { _ = try f.engine.updateTrip(header) }
        #expect(try f.engine.getTrip(GetTripRequest(name: f.tripName("t1"))).tripStatus == .new)
    }
}
