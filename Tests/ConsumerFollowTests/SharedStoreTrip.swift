import FleetEngine
import FleetGeo
import FleetInterface
import FleetModel
import FleetTestSupport
import Foundation
import JournalTransport
import SQLiteStore

/// A trip driven from the test process through a file that `consumer-follow` reads in its own
/// process — an SQLite store (`--transport memory --store sqlite:PATH`) or the journal of the file
/// transport (`--transport file:PATH`): created, assigned, given a route, moved along it, advanced
/// to COMPLETE. Every step changes what the rider sees.
///
/// The test's engine keeps its own manual clock, starting now, so ETAs do not depend on how long a
/// step takes; `clockAtStep` remembers its time at each step.
final class SharedStoreTrip {
    /// What the test and the follower share.
    enum Shared: String, CaseIterable, Sendable {
        /// An SQLite store file, each process with an engine of its own.
        case sqlite
        /// The file transport's journal.
        case journal
        /// An SQLite store file served by a real `fleet-admin serve`, followed over http.
        case http
    }

    static let provider = "shared"
    let shared: Shared
    let tripID: String
    let vehicleID: String
    let folder: URL
    let path: String
    let clock: ManualClock
    /// The Fleet Engine calls the test drives the trip with.
    let api: any FleetAPI
    private let close: () -> Void
    /// The server, for `.http`.
    private(set) var server: ServerProcess?
    /// What the server is started with besides its store (`--jwt-secret-file`).
    let serverArguments: [String]
    private(set) var clockAtStep: [Timestamp] = []

    var tripName: String { "providers/\(Self.provider)/trips/\(tripID)" }
    var vehicleName: String { "providers/\(Self.provider)/vehicles/\(vehicleID)" }
    /// `--store sqlite:PATH` for the follower (SQLite only).
    var storeArgument: String { "sqlite:" + path }
    /// The follower's `--transport` (and `--store`) arguments.
    var wiringArguments: [String] {
        switch shared {
        case .sqlite: ["--transport", "memory", "--store", storeArgument]
        case .journal: ["--transport", "file:" + path]
        case .http: ["--transport", server?.url ?? "http://127.0.0.1:1"]
        }
    }

    static let latitude = 52.5
    static let start = 13.38
    static let pickup = 13.40
    static let dropoff = 13.43
    static let toPickup = [13.385, 13.39, 13.395, 13.40]
    static let toDropoff = [13.4075, 13.415, 13.4225, 13.43]

    /// A fresh store file in a folder of its own, with the vehicle and the NEW trip in it; for `.http`,
    /// a server started with `serverArguments` besides its store.
    init(_ shared: Shared = .sqlite, tripID: String = "ride-1", vehicleID: String = "car-1", serverArguments: [String] = []) throws {
        self.shared = shared
        self.serverArguments = serverArguments
        self.tripID = tripID
        self.vehicleID = vehicleID
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-follow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        clock = ManualClock(SystemClock().now())
        switch shared {
        case .sqlite, .http:
            path = folder.appendingPathComponent("fleet.db").path
            let store = try SQLiteStore(path: path)
            api = Engine(store: store, clock: clock)
            close = { try? store.close() }
        case .journal:
            path = folder.appendingPathComponent("fleet.journal").path
            let journal = try JournalTransport(path: path, clock: clock)
            api = journal
            close = { journal.close() }
        }

        var vehicle = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                              vehicleType: VehicleType(category: .auto))
        vehicle.lastLocation = Self.fix(Self.start)
        _ = try api.createVehicle(CreateVehicleRequest(parent: "providers/\(Self.provider)", vehicleId: vehicleID, vehicle: vehicle))
        let trip = Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: Self.point(Self.pickup)),
                        dropoffPoint: TerminalLocation(point: Self.point(Self.dropoff)))
        _ = try api.createTrip(CreateTripRequest(parent: "providers/\(Self.provider)", tripId: tripID, trip: trip))
        if shared == .http { server = try ServerProcess(store: storeArgument, arguments: serverArguments) }
    }

    /// Stops the server (SIGKILL when `abruptly`) and starts it again on the same port.
    func restartServer(abruptly: Bool, between: () throws -> Void) throws {
        guard let old = server else { return }
        let listen = old.url.replacingOccurrences(of: "http://", with: "")
        if abruptly { old.kill() } else { old.stop() }
        server = nil
        try between()
        server = try ServerProcess(store: storeArgument, arguments: serverArguments, listen: listen)
    }

    deinit {
        server?.stop()
        close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The steps, in order, each named.
    var steps: [(name: String, run: () throws -> Void)] {
        var steps: [(name: String, run: () throws -> Void)] = [
            ("assign", assign),
            ("enroute to pickup", { try self.setStatus(.enrouteToPickup) }),
            ("route to pickup", { try self.setRoute(from: Self.start, to: Self.pickup) }),
        ]
        for longitude in Self.toPickup {
            steps.append(("move to \(longitude)", { try self.move(to: longitude, after: 30) }))
        }
        steps += [
            ("arrived at pickup", { try self.setStatus(.arrivedAtPickup) }),
            ("enroute to dropoff", { try self.setStatus(.enrouteToDropoff) }),
            ("route to dropoff", { try self.setRoute(from: Self.pickup, to: Self.dropoff) }),
        ]
        for longitude in Self.toDropoff {
            steps.append(("move to \(longitude)", { try self.move(to: longitude, after: 45) }))
        }
        steps.append(("complete", { try self.setStatus(.complete) }))
        return steps
    }

    func assign() throws {
        clockAtStep.append(clock.now())
        _ = try api.updateTrip(UpdateTripRequest(name: tripName, trip: Trip(vehicleId: vehicleID), updateMask: FieldMask(["vehicleId"])))
    }

    func setStatus(_ status: TripStatus) throws {
        clockAtStep.append(clock.now())
        _ = try api.updateTrip(UpdateTripRequest(name: tripName, trip: Trip(tripStatus: status), updateMask: FieldMask(["tripStatus"])))
    }

    func setRoute(from west: Double, to east: Double) throws {
        clockAtStep.append(clock.now())
        let count = Int(((east - west) / 0.0025).rounded())
        let points = (0...count).map { GeoPoint(latitude: Self.latitude, longitude: west + Double($0) * 0.0025) }
        _ = try api.updateVehicle(UpdateVehicleRequest(name: vehicleName, vehicle: Vehicle(currentRouteSegment: Polyline.encode(points)),
                                                          updateMask: FieldMask(["currentRouteSegment"])))
    }

    func move(to longitude: Double, after seconds: Double) throws {
        clock.advance(seconds: seconds)
        clockAtStep.append(clock.now())
        _ = try api.updateVehicle(UpdateVehicleRequest(
            name: vehicleName, vehicle: Vehicle(lastLocation: Self.fix(longitude)),
            updateMask: FieldMask(["lastLocation"])))
    }

    /// What the driver's phone reports at `longitude`: heading east at 30 km/h, to within 4 m.
    static func fix(_ longitude: Double) -> VehicleLocation {
        VehicleLocation(location: point(longitude), latlngAccuracy: 4, heading: 90, speed: 8.3)
    }

    static func point(_ longitude: Double) -> LatLng {
        LatLng(latitude: latitude, longitude: longitude)
    }
}
