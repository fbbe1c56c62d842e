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
#if canImport(Glibc)
import Glibc
#endif
import FleetCLI
import FleetErrors
import FleetModel
import JournalTransport

/// The provider of every resource this helper touches.
let provider = "journal-test"

let arguments = CommandLineTool.parseOrExit(Command(
    "journal-writer", abstract: "Make vehicle and trip calls through a file: journal, from a process of its own (tests).",
    options: [
        .value("writer", valueName: "n", help: "This writer's number.", required: true),
        .value("count", valueName: "k", help: "How many rounds to do.", required: true),
        .flag("no-sync", help: "Do not fsync the journal after each call."),
    ],
    arguments: [Argument("journal", help: "The journal file.")]))
let output = FileDescriptorOutput.standardOutput
let path: String
let writer: Int
let count: Int
do throws(UsageError) {
    path = try arguments.require("journal")
    writer = try arguments.int("writer") ?? 0
    count = try arguments.int("count") ?? 0
    guard writer >= 0, count >= 0 else { throw arguments.usageError("--writer and --count need whole numbers") }
} catch {
    FileDescriptorOutput.standardError.write(error.report)
    exit(2)
}

do {
    let journal = try JournalTransport(path: path, durable: !arguments.flag("no-sync"))
    defer { journal.close() }
    let own = "providers/\(provider)/vehicles/writer-\(writer)"
    let shared = "providers/\(provider)/vehicles/shared"
    for index in 0..<count {
        let location = VehicleLocation(location: LatLng(latitude: 10 + Double(index) / 1000, longitude: 20))
        _ = try journal.updateVehicle(UpdateVehicleRequest(
            name: own, vehicle: Vehicle(lastLocation: location), updateMask: FieldMask(["lastLocation"])))
        output.write("update \(writer) \(index)\n")

        _ = try journal.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: shared, attributes: [VehicleAttribute(key: "writer-\(writer)", vehicleAttributeValue: .stringValue("\(index)"))]))
        output.write("attribute \(writer) \(index)\n")

        let trip = Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 10, longitude: 20)))
        do {
            _ = try journal.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: "race-\(index)", trip: trip))
            output.write("won \(index)\n")
        } catch let error as FleetError where error.code == .alreadyExists {
            output.write("lost \(index)\n")
        }
    }
} catch {
    FileDescriptorOutput.standardError.write("journal-writer: \(error)\n")
    exit(1)
}
