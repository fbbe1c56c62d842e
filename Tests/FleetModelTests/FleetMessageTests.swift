import FleetErrors
import FleetModel
import Testing

/// Hand-written checks of particular messages, with JSON as Fleet Engine's REST API carries it.
@Suite("Fleet Engine messages")
struct FleetMessageTests {
    @Test func defaultInitializersLeaveEverythingUnset() {
        #expect(Vehicle().toJSON() == .object([:]))
        #expect(Trip().jsonString() == "{}")
        let vehicle = Vehicle(name: "providers/p/vehicles/v1", vehicleState: .online)
        #expect(vehicle.jsonString() == #"{"name":"providers/p/vehicles/v1","vehicleState":"ONLINE"}"#)
    }

    @Test func decodesARealisticCreateVehicleBody() throws {
        let body = """
            {
              "vehicleState": "OFFLINE",
              "supportedTripTypes": ["EXCLUSIVE", "SHARED"],
              "maximumCapacity": 4,
              "vehicleType": {"category": "AUTO"},
              "attributes": [{"key": "on_trip", "value": "false"}, {"key": "class", "stringValue": "premium"}],
              "lastLocation": {
                "location": {"latitude": 37.4219983, "longitude": -122.084},
                "heading": 90,
                "speedKmph": "30",
                "updateTime": "2024-05-01T12:30:00.250Z",
                "locationSensor": "GPS",
                "isGpsSensorEnabled": true,
                "horizontalAccuracy": null
              },
              "licensePlate": {"countryCode": "US", "lastCharacter": "7"}
            }
            """
        let vehicle = try Vehicle(jsonString: body)
        #expect(vehicle.vehicleState == .offline)
        #expect(vehicle.supportedTripTypes == [.exclusive, .shared])
        #expect(vehicle.maximumCapacity == 4)
        #expect(vehicle.vehicleType?.category == .auto)
        #expect(vehicle.attributes[0].value == "false")
        #expect(vehicle.attributes[1].stringValue == "premium")
        #expect(vehicle.attributes[1].vehicleAttributeValue == .stringValue("premium"))
        #expect(vehicle.lastLocation?.location == LatLng(latitude: 37.4219983, longitude: -122.084))
        #expect(vehicle.lastLocation?.heading == 90)
        #expect(vehicle.lastLocation?.speedKmph == 30)
        #expect(vehicle.lastLocation?.updateTime == Timestamp(seconds: 1_714_566_600, nanos: 250_000_000))
        #expect(vehicle.lastLocation?.locationSensor == .gps)
        #expect(vehicle.lastLocation?.horizontalAccuracy == nil)
        #expect(vehicle.licensePlate?.lastCharacter == "7")
        #expect(vehicle.name == nil)
        #expect(vehicle.waypoints.isEmpty)
    }

    @Test func encodesOnlySetFieldsWithCanonicalForms() {
        var trip = Trip(name: "providers/p/trips/t1", tripStatus: .enrouteToPickup, tripType: .exclusive)
        trip.pickupPoint = TerminalLocation(point: LatLng(latitude: 1.5, longitude: -2))
        trip.remainingDistanceMeters = 0
        trip.remainingTimeToFirstWaypoint = ProtoDuration(seconds: 90, nanos: 500_000_000)
        trip.etaToFirstWaypoint = Timestamp(seconds: 1_714_566_600)
        trip.numberOfPassengers = 2
        trip.lastLocationSnappable = false
        #expect(trip.jsonString() == """
            {"name":"providers/p/trips/t1","tripStatus":"ENROUTE_TO_PICKUP","tripType":"EXCLUSIVE",\
            "pickupPoint":{"point":{"latitude":1.5,"longitude":-2}},"remainingDistanceMeters":0,\
            "etaToFirstWaypoint":"2024-05-01T12:30:00Z","remainingTimeToFirstWaypoint":"90.500s",\
            "numberOfPassengers":2,"lastLocationSnappable":false}
            """)
    }

    @Test func int64FieldsTravelAsStrings() throws {
        let response = ListVehiclesResponse(vehicles: [Vehicle(name: "providers/p/vehicles/a")], nextPageToken: "next", totalSize: 9_007_199_254_740_993)
        #expect(response.jsonString() == #"{"vehicles":[{"name":"providers/p/vehicles/a"}],"nextPageToken":"next","totalSize":"9007199254740993"}"#)
        #expect(try ListVehiclesResponse(jsonString: #"{"totalSize":"9007199254740993"}"#).totalSize == 9_007_199_254_740_993)
        #expect(try ListVehiclesResponse(jsonString: #"{"totalSize":12}"#).totalSize == 12)
    }

    @Test func wrappersAcceptNullAndPlainValues() throws {
        let json = #"{"vehiclePickupDistanceMeters":null,"vehiclePickupStraightLineDistanceMeters":1200,"vehicle":null}"#
        let match = try VehicleMatch(jsonString: json)
        #expect(match.vehiclePickupDistanceMeters == nil)
        #expect(match.vehiclePickupStraightLineDistanceMeters == 1200)
        #expect(match.vehicle == nil)
        #expect(match.jsonString() == #"{"vehiclePickupStraightLineDistanceMeters":1200}"#)
        let location = try VehicleLocation(jsonString: #"{"isRoadSnapped":false,"speed":0}"#)
        #expect(location.isRoadSnapped == false)
        #expect(location.speed == 0)
        #expect(location.jsonString() == #"{"speed":0,"isRoadSnapped":false}"#)
    }

    @Test func unknownEnumValuesSurviveARoundTrip() throws {
        let json = #"{"tripStatus":"BEAMED_UP","tripType":7,"view":"SDK"}"#
        let trip = try Trip(jsonString: json)
        #expect(trip.tripStatus?.name == "BEAMED_UP")
        #expect(trip.tripType == TripType(number: 7))
        #expect(trip.tripType?.number == 7)
        #expect(trip.view == .sdk)
        #expect(trip.jsonString() == json)
        let vehicle = try Vehicle(jsonString: #"{"supportedTripTypes":["SHARED","CARPOOL_PLUS",9]}"#)
        #expect(vehicle.supportedTripTypes.map(\.name) == ["SHARED", "CARPOOL_PLUS", "9"])
        #expect(vehicle.jsonString() == #"{"supportedTripTypes":["SHARED","CARPOOL_PLUS",9]}"#)
    }

    @Test func updateMasksAreStringsOfCamelCasePaths() throws {
        let request = try UpdateVehicleRequest(jsonString: #"{"name":"providers/p/vehicles/v","updateMask":"vehicle_state,last_location","vehicle":{"vehicleState":"ONLINE"}}"#)
        #expect(request.updateMask?.paths == ["vehicleState", "lastLocation"])
        #expect(request.jsonString() == #"{"name":"providers/p/vehicles/v","vehicle":{"vehicleState":"ONLINE"},"updateMask":"vehicleState,lastLocation"}"#)
    }

    @Test func typeErrorsNameTheFullPath() throws {
        let json = #"{"vehicle":{"lastLocation":{"location":{"latitude":"north"}}}}"#
        let error = try #require(throws: FleetError.self) { try CreateVehicleRequest(jsonString: json) }
        #expect(error.field == "vehicle.lastLocation.location.latitude")
        #expect(error.message == #"Invalid JSON payload received. Invalid value at 'vehicle.lastLocation.location.latitude' (TYPE_DOUBLE), "north": expected a number, a numeric string, or "NaN", "Infinity" or "-Infinity"."#)
        #expect(error.cause == ErrorCause.invalidField.id)

        let inArray = #"{"vehicleWaypoints":[{"tripId":"a"},{"location":{"point":{"latitude":1,"longitude":[2]}}}]}"#
        let arrayError = try #require(throws: FleetError.self) { try Trip(jsonString: inArray, path: "trip") }
        #expect(arrayError.field == "trip.vehicleWaypoints[1].location.point.longitude")
    }

    @Test func unknownFieldsNameTheirObject() throws {
        let error = try #require(throws: FleetError.self) {
            try Vehicle(jsonString: #"{"name":"x","lastLocation":{"speedKmph":3,"foo":1}}"#, path: "vehicle")
        }
        #expect(error.message == #"Invalid JSON payload received. Unknown name "foo" at 'vehicle.lastLocation': Cannot find field."#)
        #expect(error.field == "vehicle.lastLocation")
        let top = try #require(throws: FleetError.self) { try Vehicle(jsonString: #"{"colour":"red"}"#) }
        #expect(top.message == #"Invalid JSON payload received. Unknown name "colour": Cannot find field."#)
        #expect(top.field == nil)
        let lenient = try Vehicle(jsonString: #"{"colour":"red","name":"n"}"#, options: DecodingOptions(ignoreUnknownFields: true))
        #expect(lenient == Vehicle(name: "n"))
    }

    @Test func oneofMembersAreMutuallyExclusive() throws {
        let error = try #require(throws: FleetError.self) {
            try VehicleAttribute(jsonString: #"{"key":"k","stringValue":"a","numberValue":1}"#, path: "attributes[0]")
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("vehicle_attribute_value"))
        #expect(error.field == "attributes[0].numberValue")
        var attribute = VehicleAttribute(key: "k", vehicleAttributeValue: .boolValue(true))
        #expect(attribute.jsonString() == #"{"key":"k","boolValue":true}"#)
        attribute.numberValue = 2.5
        #expect(attribute.boolValue == nil)
        #expect(attribute.jsonString() == #"{"key":"k","numberValue":2.5}"#)
        attribute.stringValue = nil  // not the member that is set: no change
        #expect(attribute.numberValue == 2.5)
        attribute.numberValue = nil
        #expect(attribute.vehicleAttributeValue == nil)
    }

    @Test func malformedBodiesReportTheParseError() throws {
        let error = try #require(throws: FleetError.self) { try Vehicle(jsonBytes: Array(#"{"name": "x",}"#.utf8)) }
        #expect(error.cause == ErrorCause.malformedJSON.id)
        #expect(error.message.contains("line 1, column 14 (byte 13)"))
    }

    @Test func fieldPathsListTopLevelJSONNames() {
        #expect(Vehicle.fieldPaths.contains("vehicleState"))
        #expect(Vehicle.fieldPaths.contains("currentRouteSegmentEndPoint"))
        #expect(Vehicle.fieldPaths.count == 23)
        #expect(Trip.fieldPaths.count == 34)
        #expect(VehicleAttribute.fieldPaths == ["key", "value", "stringValue", "boolValue", "numberValue"])
        #expect(Vehicle.protoMessageName == "maps.fleetengine.v1.Vehicle")
        #expect(VehicleType.protoMessageName == "maps.fleetengine.v1.Vehicle.VehicleType")
    }

    @Test func nestedTypesKeepTheirProtoNames() {
        #expect(VisualTrafficReportPolylineRendering.RoadStretch.Style.trafficJam.number == 2)
        #expect(SpeedReadingInterval.Speed.trafficJam.number == 3)
        #expect(RequestHeader.SdkType.driver.number == 2)
        #expect(SearchVehiclesRequest.VehicleMatchOrder.pickupPointStraightDistance.number == 4)
        #expect(VehicleMatch.VehicleMatchType.carpoolBackToBack.number == 4)
        #expect(ReportBillableTripRequest.SolutionType.onDemandRidesharingAndDeliveries.number == 1)
    }
}
