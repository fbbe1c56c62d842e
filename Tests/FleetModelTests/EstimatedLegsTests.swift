import FleetModel
import Testing

/// `estimatedLegs`, the server's extension on Vehicle and DeliveryVehicle: in the JSON (REST) form, never in the
/// binary (gRPC) form, whose descriptors are Google's.
struct EstimatedLegsTests {
    let legs = [EstimatedRouteLeg(leg: 1, cause: "ROUTE_NOT_FOUND", reason: "no motorcar route to to 52.52,13.44")]

    @Test func theJSONFormCarriesItAndReadsItBack() throws {
        let vehicle = Vehicle(name: "providers/p/vehicles/v1", estimatedLegs: legs)
        let text = vehicle.jsonString()
        #expect(text.contains(#""estimatedLegs":[{"leg":1,"cause":"ROUTE_NOT_FOUND","reason":"no motorcar route to to 52.52,13.44"}]"#), "\(text)")
        #expect(try Vehicle(jsonString: text) == vehicle)
        let van = DeliveryVehicle(name: "providers/p/deliveryVehicles/d1", estimatedLegs: legs)
        #expect(try DeliveryVehicle(jsonString: van.jsonString()) == van)
        #expect(!Vehicle(name: "v").jsonString().contains("estimatedLegs"), "none: not written")
    }

    @Test func theBinaryFormLeavesItOut() throws {
        let vehicle = Vehicle(name: "providers/p/vehicles/v1", estimatedLegs: legs)
        #expect(vehicle.protobufBytes() == Vehicle(name: "providers/p/vehicles/v1").protobufBytes())
        let van = DeliveryVehicle(name: "providers/p/deliveryVehicles/d1", estimatedLegs: legs)
        #expect(van.protobufBytes() == DeliveryVehicle(name: "providers/p/deliveryVehicles/d1").protobufBytes())
    }
}
