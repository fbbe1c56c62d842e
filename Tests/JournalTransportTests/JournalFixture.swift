import FleetEngine
import FleetErrors
import FleetModel
import Foundation
@_exported import FleetTestSupport
import JournalTransport
import Testing

/// A fresh journal file in its own temporary folder, a manual clock, and builders for requests.
final class JournalFixture: Sendable {
    let directory: String
    let path: String
    let clock = ManualClock()
    let provider = "journal-test"

    init() throws {
        let temporary = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array("\(temporary)journal-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FleetError.internal("mkdtemp failed") }
        directory = String(cString: made)
        path = "\(directory)/fleet.journal"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A transport on the fixture's journal: one "process" (each has its own engine).
    func open(durable: Bool = false) throws -> JournalTransport {
        try JournalTransport(path: path, clock: clock, durable: durable)
    }

    /// The journal's bytes.
    func bytes() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The journal's lines (without newlines), an incomplete last line included.
    func lines() throws -> [String] {
        String(decoding: try bytes(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init).filter { !$0.isEmpty }
    }

    /// Appends raw bytes to the journal, as a misbehaving or dying writer would.
    func appendRaw(_ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Replaces the journal's content.
    func overwrite(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    var parent: String { "providers/\(provider)" }
    func vehicleName(_ id: String) -> String { "providers/\(provider)/vehicles/\(id)" }
    func tripName(_ id: String) -> String { "providers/\(provider)/trips/\(id)" }

    static func point(_ lat: Double, _ lng: Double) -> LatLng { LatLng(latitude: lat, longitude: lng) }

    func createVehicleRequest(_ id: String, at location: (Double, Double)? = (52.52, 13.40)) -> CreateVehicleRequest {
        var vehicle = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive, .shared], maximumCapacity: 4,
                              vehicleType: VehicleType(category: .auto))
        if let location { vehicle.lastLocation = VehicleLocation(location: Self.point(location.0, location.1)) }
        return CreateVehicleRequest(parent: parent, vehicleId: id, vehicle: vehicle)
    }

    func moveRequest(_ id: String, to lat: Double, _ lng: Double) -> UpdateVehicleRequest {
        UpdateVehicleRequest(name: vehicleName(id), vehicle: Vehicle(lastLocation: VehicleLocation(location: Self.point(lat, lng))),
                             updateMask: FieldMask(["lastLocation"]))
    }

    func attributeRequest(_ id: String, key: String, value: String) -> UpdateVehicleAttributesRequest {
        UpdateVehicleAttributesRequest(name: vehicleName(id),
                                       attributes: [VehicleAttribute(key: key, vehicleAttributeValue: .stringValue(value))])
    }

    func createTripRequest(_ id: String, vehicle: String? = nil, pickup: (Double, Double) = (52.53, 13.41),
                           dropoff: (Double, Double) = (52.50, 13.45)) -> CreateTripRequest {
        var trip = Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: Self.point(pickup.0, pickup.1)))
        trip.dropoffPoint = TerminalLocation(point: Self.point(dropoff.0, dropoff.1))
        trip.vehicleId = vehicle
        return CreateTripRequest(parent: parent, tripId: id, trip: trip)
    }

    func statusRequest(_ id: String, _ status: TripStatus) -> UpdateTripRequest {
        UpdateTripRequest(name: tripName(id), trip: Trip(tripStatus: status), updateMask: FieldMask(["tripStatus"]))
    }

    func listVehicles() -> ListVehiclesRequest {
        ListVehiclesRequest(parent: parent, pageSize: 1000, vehicleTypeCategories: [.auto])
    }

    func getTrip(_ id: String) -> GetTripRequest {
        GetTripRequest(name: tripName(id))
    }
}

