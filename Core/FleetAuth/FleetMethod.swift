/// Every call of the Fleet Engine v1 on-demand API this product serves, plus `watchTrip`, our
/// streaming extension (authorized like `getTrip`).
public enum FleetMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `POST /v1/{parent=providers/*}/vehicles`.
    case createVehicle = "CreateVehicle"
    /// `GET /v1/{name=providers/*/vehicles/*}`.
    case getVehicle = "GetVehicle"
    /// `PUT /v1/{name=providers/*/vehicles/*}` with an update mask.
    case updateVehicle = "UpdateVehicle"
    /// `POST /v1/{name=providers/*/vehicles/*}:updateAttributes`.
    case updateVehicleAttributes = "UpdateVehicleAttributes"
    /// `GET /v1/{parent=providers/*}/vehicles`.
    case listVehicles = "ListVehicles"
    /// `POST /v1/{parent=providers/*}/vehicles:search`.
    case searchVehicles = "SearchVehicles"
    /// `DELETE /v1/{name=providers/*/vehicles/*}`.
    case deleteVehicle = "DeleteVehicle"
    /// `POST /v1/{parent=providers/*}/trips`.
    case createTrip = "CreateTrip"
    /// `GET /v1/{name=providers/*/trips/*}`.
    case getTrip = "GetTrip"
    /// `PUT /v1/{name=providers/*/trips/*}` with an update mask.
    case updateTrip = "UpdateTrip"
    /// `POST /v1/{parent=providers/*}/trips:search`.
    case searchTrips = "SearchTrips"
    /// `DELETE /v1/{name=providers/*/trips/*}`.
    case deleteTrip = "DeleteTrip"
    /// `POST /v1/{name=providers/*/billableTrips/*}:report`.
    case reportBillableTrip = "ReportBillableTrip"
    /// Our `:watch` stream of a trip's changes; the same rights as `getTrip`.
    case watchTrip = "WatchTrip"

    /// The RPC name (`GetTrip`), as messages and the gRPC service write it.
    public var description: String { rawValue }

    /// What a method works on.
    public enum Resource: String, Sendable, Hashable {
        /// Vehicles (`providers/*/vehicles/*`).
        case vehicle
        /// Trips (`providers/*/trips/*`; billable trips count as trips).
        case trip
    }

    /// The kind of resource the method works on.
    public var resource: Resource {
        switch self {
        case .createVehicle, .getVehicle, .updateVehicle, .updateVehicleAttributes, .listVehicles, .searchVehicles, .deleteVehicle: .vehicle
        case .createTrip, .getTrip, .updateTrip, .searchTrips, .deleteTrip, .reportBillableTrip, .watchTrip: .trip
        }
    }

    /// Whether the method only reads (Get, List, Search, Watch).
    public var isReadOnly: Bool {
        switch self {
        case .getVehicle, .listVehicles, .searchVehicles, .getTrip, .searchTrips, .watchTrip: true
        default: false
        }
    }

    /// Whether the method works on many resources at once rather than on one named resource (List, Search).
    public var readsCollection: Bool {
        switch self {
        case .listVehicles, .searchVehicles, .searchTrips: true
        default: false
        }
    }
}
