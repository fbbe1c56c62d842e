import FleetErrors
import FleetInterface
import FleetModel

/// Re-creates exported vehicles and trips through the API (`fleet-admin import`).
///
/// Vehicles are created as exported (the engine ignores the fields it owns). A trip is created
/// with its points, type, passengers and attributes, assigned to its vehicle, then moved along the
/// legal path of statuses to the one it had (`TripStatusPath`): pickup and dropoff times are
/// those of the import. Trips that ended (COMPLETE, CANCELED) are restored as they come; active
/// trips wait until the end, so that a finished trip never occupies a vehicle an active one needs.
/// A cancelled trip whose vehicle no longer exists is restored without it; a completed one fails
/// (COMPLETE can only be reached with a vehicle).
public final class FleetImporter {
    /// What an import did.
    public struct Counts: Sendable, Equatable {
        /// Vehicles created.
        public var vehicles = 0
        /// Trips created (and moved to their status).
        public var trips = 0
        /// Resources that already existed and were left alone (`--skip-existing`).
        public var skipped = 0
    }

    private let api: any FleetAPI
    private let provider: String
    private let skipExisting: Bool
    private var deferred: [Trip] = []
    /// What was done so far.
    public private(set) var counts = Counts()

    /// An importer into `provider` (the exported names' provider is replaced by it).
    public init(api: any FleetAPI, provider: String, skipExisting: Bool) {
        self.api = api
        self.provider = provider
        self.skipExisting = skipExisting
    }

    /// Takes one exported record.
    public func add(_ record: FleetRecordLine) throws {
        switch record {
        case .vehicle(let vehicle): try create(vehicle)
        case .trip(let trip):
            if TripLifecycle.isFinal(trip.tripStatus) {
                try restore(trip)
            } else {
                deferred.append(trip)
            }
        }
    }

    /// Restores the active trips held back; call once the input is read.
    public func finish() throws {
        let trips = deferred
        deferred = []
        for trip in trips { try restore(trip) }
    }

    private func create(_ vehicle: Vehicle) throws {
        let id = ResourceID.of(vehicle.name)
        guard vehicle.name != nil else { throw FleetError.invalidArgument("an exported vehicle has no name", field: "resource.name") }
        try skippingExisting {
            _ = try api.createVehicle(CreateVehicleRequest(parent: "providers/\(provider)", vehicleId: id, vehicle: vehicle))
            counts.vehicles += 1
        }
    }

    private func restore(_ exported: Trip) throws {
        guard exported.name != nil else { throw FleetError.invalidArgument("an exported trip has no name", field: "resource.name") }
        let id = ResourceID.of(exported.name)
        let input = Trip(vehicleId: exported.vehicleId.flatMap { $0.isEmpty ? nil : $0 }, tripType: exported.tripType,
                         pickupPoint: exported.pickupPoint, intermediateDestinations: exported.intermediateDestinations,
                         dropoffPoint: exported.dropoffPoint, numberOfPassengers: exported.numberOfPassengers,
                         attributes: exported.attributes)
        let name = "providers/\(provider)/trips/\(id)"
        try skippingExisting {
            do {
                _ = try api.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: id, trip: input))
            } catch let error as FleetError where error.code == .notFound && exported.tripStatus == .canceled {
                // A cancelled trip whose vehicle is gone: restored without it (it no longer holds the vehicle anyway).
                var unassigned = input
                unassigned.vehicleId = nil
                _ = try api.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: id, trip: unassigned))
            }
            for step in TripStatusPath.steps(to: exported.tripStatus ?? .new, index: exported.intermediateDestinationIndex) {
                _ = try api.updateTrip(TripStatusPath.request(moving: try TripName(parsing: name), step))
            }
            counts.trips += 1
        }
    }

    private func skippingExisting(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as FleetError where error.code == .alreadyExists && skipExisting {
            counts.skipped += 1
        }
    }
}

extension TripLifecycle {
    /// Whether a trip with this status has ended (COMPLETE or CANCELED).
    public static func isFinal(_ status: TripStatus?) -> Bool {
        status.map(isTerminal) ?? false
    }
}
