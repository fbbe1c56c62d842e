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
import FleetCLI
import FleetErrors
import FleetModel
import JournalTransport
import HelperSupport

/// The provider of every resource this helper touches.
let provider = "journal-test"

let run = WriterCommandLine.parseOrExit(
    "journal-writer", abstract: "Make vehicle and trip calls through a file: journal, from a process of its own (tests).",
    target: Argument("journal", help: "The journal file."),
    options: [.flag("no-sync", help: "Do not fsync the journal after each call.")])
let (path, writer, count) = (run.target, run.writer, run.count)

do {
    let journal = try JournalTransport(path: path, durable: !run.arguments.flag("no-sync"))
    defer { journal.close() }
    let own = "providers/\(provider)/vehicles/writer-\(writer)"
    let shared = "providers/\(provider)/vehicles/shared"
    for index in 0..<count {
        let location = VehicleLocation(location: LatLng(latitude: 10 + Double(index) / 1000, longitude: 20))
        _ = try journal.updateVehicle(UpdateVehicleRequest(
            name: own, vehicle: Vehicle(lastLocation: location), updateMask: FieldMask(["lastLocation"])))
        run.acknowledge("update \(writer) \(index)")

        _ = try journal.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: shared, attributes: [VehicleAttribute(key: "writer-\(writer)", vehicleAttributeValue: .stringValue("\(index)"))]))
        run.acknowledge("attribute \(writer) \(index)")

        let trip = Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 10, longitude: 20)))
        do {
            _ = try journal.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: "race-\(index)", trip: trip))
            run.acknowledge("won \(index)")
        } catch let error as FleetError where error.code == .alreadyExists {
            run.acknowledge("lost \(index)")
        }
    }
} catch {
    run.fail(error)
}
