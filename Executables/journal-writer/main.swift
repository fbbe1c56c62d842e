// journal-writer: a test helper that makes calls through a `file:` journal from its own OS process.
//
//   journal-writer JOURNAL --writer N --count K [--no-sync]
//
// Expects vehicle "writer-N" and vehicle "shared" (provider "journal-test") to exist. Does K rounds of:
//   1. UpdateVehicle writer-N's lastLocation to latitude 10 + I/1000 (prints "update N I");
//   2. UpdateVehicleAttributes on "shared": attribute "writer-N" = "I" (prints "attribute N I");
//   3. CreateTrip "race-I", which every writer attempts: one wins ("won I"), the others must fail
//      with ALREADY_EXISTS ("lost I").
// Each line is printed after the call returned (so after the journal was synced). Exits 2 on bad
// usage, 1 on any other error (printed on standard error).
import FleetErrors
import FleetModel
import Foundation
import JournalTransport

/// The provider of every resource this helper touches.
let provider = "journal-test"

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("journal-writer: \(message)\n".utf8))
    exit(status)
}

func acknowledge(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())
var writer: Int?
var count: Int?
var path: String?
var durable = true
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--writer", "--count":
        guard let value = arguments.first.flatMap({ Int($0) }), value >= 0 else {
            fail("\(argument) needs a whole number", status: 2)
        }
        arguments.removeFirst()
        if argument == "--writer" { writer = value } else { count = value }
    case "--no-sync":
        durable = false
    default:
        guard path == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'", status: 2) }
        path = argument
    }
}
guard let path, let writer, let count else {
    fail("usage: journal-writer JOURNAL --writer N --count K [--no-sync]", status: 2)
}

do {
    let journal = try JournalTransport(path: path, durable: durable)
    defer { journal.close() }
    let own = "providers/\(provider)/vehicles/writer-\(writer)"
    let shared = "providers/\(provider)/vehicles/shared"
    for index in 0..<count {
        let location = VehicleLocation(location: LatLng(latitude: 10 + Double(index) / 1000, longitude: 20))
        _ = try journal.updateVehicle(UpdateVehicleRequest(
            name: own, vehicle: Vehicle(lastLocation: location), updateMask: FieldMask(["lastLocation"])))
        acknowledge("update \(writer) \(index)")

        _ = try journal.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: shared, attributes: [VehicleAttribute(key: "writer-\(writer)", vehicleAttributeValue: .stringValue("\(index)"))]))
        acknowledge("attribute \(writer) \(index)")

        let trip = Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 10, longitude: 20)))
        do {
            _ = try journal.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: "race-\(index)", trip: trip))
            acknowledge("won \(index)")
        } catch let error as FleetError where error.code == .alreadyExists {
            acknowledge("lost \(index)")
        }
    }
} catch {
    fail("\(error)", status: 1)
}
