import FleetModel
import Foundation
import Testing

/// `fleet-admin vehicles …` run as a binary, over every transport.
@Suite struct VehicleCommandTests {
    @Test(arguments: AdminTransport.allCases)
    func createShowsAKeyValueBlockAndGetReturnsFleetEngineJSON(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        let created = try fleet.succeed(["vehicles", "create", "car-1", "--capacity", "4", "--type", "exclusive,shared",
                                         "--state", "online", "--location", "52.52,13.40", "--attributes", "wheelchair=yes,color=red"])
        #expect(created.contains("Name:           providers/demo/vehicles/car-1\n"))
        #expect(created.contains("State:          ONLINE\n"))
        #expect(created.contains("Trip types:     EXCLUSIVE,SHARED\n"))
        #expect(created.contains("Location:       52.52000,13.40000\n"))
        #expect(created.contains("Attributes:     wheelchair=yes,color=red\n"))
        #expect(!created.contains("\u{1B}["), "no colour into a pipe")

        let vehicle = try fleet.json(Vehicle.self, ["vehicles", "get", "car-1"])
        #expect(vehicle.name == "providers/demo/vehicles/car-1")
        #expect(vehicle.vehicleState == .online)
        #expect(vehicle.supportedTripTypes == [.exclusive, .shared])
        #expect(vehicle.maximumCapacity == 4)
        #expect(vehicle.vehicleType?.category == .auto)
        #expect(vehicle.lastLocation?.location == LatLng(latitude: 52.52, longitude: 13.40))
        #expect(vehicle.attributes.map(\.key) == ["wheelchair", "color"])
        #expect(vehicle.attributes.first?.stringValue == "yes")

        let byName = try fleet.json(Vehicle.self, ["vehicles", "get", "providers/demo/vehicles/car-1"])
        #expect(byName == vehicle)
    }

    @Test(arguments: AdminTransport.allCases)
    func createTakesAJSONBodyThatFlagsOverride(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        let body = #"{"vehicleState":"ONLINE","supportedTripTypes":["SHARED"],"maximumCapacity":6,"vehicleType":{"category":"TAXI"},"backToBackEnabled":true}"#
        let file = try fleet.write("car.json", body)
        let vehicle = try fleet.json(Vehicle.self, ["vehicles", "create", "taxi-1", "--json-body", file, "--state", "offline"])
        #expect(vehicle.vehicleState == .offline, "the flag wins over the body")
        #expect(vehicle.maximumCapacity == 6)
        #expect(vehicle.vehicleType?.category == .taxi)
        #expect(vehicle.backToBackEnabled == true)
        #expect(vehicle.supportedTripTypes == [.shared])

        let fromStandardInput = try fleet.json(Vehicle.self, ["vehicles", "create", "taxi-2", "--json-body", "-"], input: .text(body))
        #expect(fromStandardInput.vehicleState == .online)
    }

    @Test(arguments: AdminTransport.allCases)
    func createFillsDefaultsButNeverTheCapacity(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        let vehicle = try fleet.json(Vehicle.self, ["vehicles", "create", "car-1", "--capacity", "2"])
        #expect(vehicle.vehicleState == .offline)
        #expect(vehicle.supportedTripTypes == [.exclusive])
        #expect(vehicle.vehicleType?.category == .auto)

        let missing = try fleet.run(["vehicles", "create", "car-2"])
        #expect(missing.status == 13, "\(missing)")
        #expect(missing.error.unwrapped.contains("INVALID_ARGUMENT"))
        #expect(missing.error.unwrapped.contains("vehicle.maximumCapacity is required"))
        #expect(missing.error.unwrapped.contains("Field: vehicle.maximumCapacity"))
    }

    @Test(arguments: AdminTransport.allCases)
    func listPrintsATableJSONArrayAndJSONLines(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        try fleet.succeed(["vehicles", "create", "car-1", "--capacity", "4", "--state", "online", "--location", "52.52,13.40"])
        try fleet.succeed(["vehicles", "create", "bike-22", "--capacity", "1", "--category", "bicycle"])
        try fleet.succeed(["vehicles", "create", "car-3", "--capacity", "12", "--category", "auto"])

        let table = try fleet.succeed(["vehicles", "list"]).split(separator: "\n").map(String.init)
        #expect(table.count == 4)
        #expect(table[0] == "ID       STATE    TYPE     CAPACITY  TRIPS  LOCATION           UPDATED")
        #expect(table[1].hasPrefix("bike-22  OFFLINE  BICYCLE         1  -      -                  -"))
        #expect(table[2].hasPrefix("car-1    ONLINE   AUTO            4  -      52.52000,13.40000  20"))
        #expect(table[3].hasPrefix("car-3    OFFLINE  AUTO           12  -      -"))

        let array = try JSON.parse(try fleet.succeed(["vehicles", "list", "--json"]))
        let names = try #require(array.arrayValue).map { try Vehicle(json: $0).name }
        #expect(names == ["providers/demo/vehicles/bike-22", "providers/demo/vehicles/car-1", "providers/demo/vehicles/car-3"])

        let lines = try fleet.succeed(["vehicles", "list", "--jsonl", "--category", "auto", "--page-size", "1"])
            .split(separator: "\n").map { try Vehicle(jsonString: String($0)) }
        #expect(lines.map(\.name) == ["providers/demo/vehicles/car-1", "providers/demo/vehicles/car-3"], "pages followed to the end")

        let online = try fleet.succeed(["vehicles", "list", "--state", "online", "--jsonl"])
        #expect(online.split(separator: "\n").count == 1)
        let limited = try fleet.succeed(["vehicles", "list", "--limit", "2", "--page-size", "1", "--jsonl"])
        #expect(limited.split(separator: "\n").count == 2)
        let empty = try fleet.succeed(["vehicles", "list", "--category", "truck", "--json"])
        #expect(empty == "[]\n")
    }

    @Test(arguments: AdminTransport.allCases)
    func updateBuildsTheMaskFromTheFlagsGiven(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        try fleet.succeed(["vehicles", "create", "car-1", "--capacity", "4", "--attributes", "a=1,b=2", "--location", "52.52,13.40"])
        let updated = try fleet.json(Vehicle.self, ["vehicles", "update", "car-1", "--capacity", "6", "--attributes", "c=3"])
        #expect(updated.maximumCapacity == 6)
        #expect(updated.attributes.map(\.key) == ["c"], "--attributes replaces them all")
        #expect(updated.vehicleState == .offline, "fields not named are kept")
        #expect(updated.lastLocation?.location == LatLng(latitude: 52.52, longitude: 13.40))

        let moved = try fleet.json(Vehicle.self, ["vehicles", "update", "car-1", "--location=-33.87,151.21"])
        #expect(moved.lastLocation?.location == LatLng(latitude: -33.87, longitude: 151.21))

        let fromBody = try fleet.json(Vehicle.self, ["vehicles", "update", "car-1", "--json-body", "-", "--mask", "vehicle_state"],
                                      input: .text(#"{"vehicleState":"ONLINE","maximumCapacity":99}"#))
        #expect(fromBody.vehicleState == .online)
        #expect(fromBody.maximumCapacity == 6, "--mask keeps the body's other fields out")

        let nothing = try fleet.run(["vehicles", "update", "car-1"])
        #expect(nothing.status == 2)
        #expect(nothing.error.unwrapped.contains("nothing to update"))
    }

    @Test(arguments: AdminTransport.allCases)
    func onlineOfflineSearchAndDelete(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        try fleet.succeed(["vehicles", "create", "near", "--capacity", "4", "--location", "52.5200,13.4000"])
        try fleet.succeed(["vehicles", "create", "far", "--capacity", "4", "--state", "online", "--location", "52.5400,13.4300"])
        #expect(try fleet.json(Vehicle.self, ["vehicles", "online", "near"]).vehicleState == .online)

        let table = try fleet.succeed(["vehicles", "search", "--pickup", "52.521,13.401", "--radius", "2000"])
        let rows = table.split(separator: "\n")
        #expect(rows.first?.hasPrefix("ID    STATE   TYPE  CAPACITY  TRIPS  MATCH      PICKUP ETA") == true, "\(table)")
        #expect(rows.count == 2, "only the vehicle within 2 km")
        #expect(rows.last?.hasPrefix("near  ONLINE  AUTO         4  -      EXCLUSIVE") == true)

        let matches = try #require(try JSON.parse(try fleet.succeed(["vehicles", "search", "--pickup", "52.521,13.401", "--radius", "10000", "--json"])).arrayValue)
        #expect(try matches.map { try VehicleMatch(json: $0).vehicle?.name } == ["providers/demo/vehicles/near", "providers/demo/vehicles/far"])

        #expect(try fleet.json(Vehicle.self, ["vehicles", "offline", "near"]).vehicleState == .offline)
        let deleted = try fleet.succeed(["vehicles", "delete", "near"])
        #expect(deleted == "Deleted providers/demo/vehicles/near\n")
        #expect(try fleet.succeed(["vehicles", "delete", "far", "--json"]) == "{}\n")
        let gone = try fleet.run(["vehicles", "get", "near"])
        #expect(gone.status == 15)
    }
}
