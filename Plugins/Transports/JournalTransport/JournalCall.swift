import FleetInterface
import FleetModel

/// One mutating Fleet Engine call, as a journal records it: the method and its request.
///
/// Reads (Get, List, Search) change nothing and are never journaled.
public enum JournalCall: Sendable, Hashable {
    /// `CreateVehicle`.
    case createVehicle(CreateVehicleRequest)
    /// `UpdateVehicle`.
    case updateVehicle(UpdateVehicleRequest)
    /// `UpdateVehicleAttributes`.
    case updateVehicleAttributes(UpdateVehicleAttributesRequest)
    /// `DeleteVehicle`.
    case deleteVehicle(DeleteVehicleRequest)
    /// `CreateTrip`.
    case createTrip(CreateTripRequest)
    /// `UpdateTrip`.
    case updateTrip(UpdateTripRequest)
    /// `DeleteTrip`.
    case deleteTrip(DeleteTripRequest)
    /// `ReportBillableTrip`.
    case reportBillableTrip(ReportBillableTripRequest)

    /// The gRPC method names a journal may hold, in the order of the cases.
    public static let methods = [
        "CreateVehicle", "UpdateVehicle", "UpdateVehicleAttributes", "DeleteVehicle",
        "CreateTrip", "UpdateTrip", "DeleteTrip", "ReportBillableTrip",
    ]

    /// The gRPC method name (`UpdateVehicle`), the record's `method`.
    public var method: String {
        switch self {
        case .createVehicle: "CreateVehicle"
        case .updateVehicle: "UpdateVehicle"
        case .updateVehicleAttributes: "UpdateVehicleAttributes"
        case .deleteVehicle: "DeleteVehicle"
        case .createTrip: "CreateTrip"
        case .updateTrip: "UpdateTrip"
        case .deleteTrip: "DeleteTrip"
        case .reportBillableTrip: "ReportBillableTrip"
        }
    }

    /// The request's proto3 JSON, the record's `request`.
    public var requestJSON: JSON {
        switch self {
        case .createVehicle(let request): request.toJSON()
        case .updateVehicle(let request): request.toJSON()
        case .updateVehicleAttributes(let request): request.toJSON()
        case .deleteVehicle(let request): request.toJSON()
        case .createTrip(let request): request.toJSON()
        case .updateTrip(let request): request.toJSON()
        case .deleteTrip(let request): request.toJSON()
        case .reportBillableTrip(let request): request.toJSON()
        }
    }

    /// The call named `method` with its request decoded (strictly) from `request`; nil for a method
    /// this build does not know.
    ///
    /// - Throws: the request's decoding error (INVALID_ARGUMENT naming the field under `request`).
    public init?(method: String, request: JSON) throws {
        let path = "request"
        switch method {
        case "CreateVehicle": self = .createVehicle(try CreateVehicleRequest(json: request, path: path))
        case "UpdateVehicle": self = .updateVehicle(try UpdateVehicleRequest(json: request, path: path))
        case "UpdateVehicleAttributes": self = .updateVehicleAttributes(try UpdateVehicleAttributesRequest(json: request, path: path))
        case "DeleteVehicle": self = .deleteVehicle(try DeleteVehicleRequest(json: request, path: path))
        case "CreateTrip": self = .createTrip(try CreateTripRequest(json: request, path: path))
        case "UpdateTrip": self = .updateTrip(try UpdateTripRequest(json: request, path: path))
        case "DeleteTrip": self = .deleteTrip(try DeleteTripRequest(json: request, path: path))
        case "ReportBillableTrip": self = .reportBillableTrip(try ReportBillableTripRequest(json: request, path: path))
        default: return nil
        }
    }

    /// Makes the call on `api`, discarding what it returns.
    public func perform(on api: any FleetAPI) throws {
        switch self {
        case .createVehicle(let request): _ = try api.createVehicle(request)
        case .updateVehicle(let request): _ = try api.updateVehicle(request)
        case .updateVehicleAttributes(let request): _ = try api.updateVehicleAttributes(request)
        case .deleteVehicle(let request): try api.deleteVehicle(request)
        case .createTrip(let request): _ = try api.createTrip(request)
        case .updateTrip(let request): _ = try api.updateTrip(request)
        case .deleteTrip(let request): try api.deleteTrip(request)
        case .reportBillableTrip(let request): try api.reportBillableTrip(request)
        }
    }
}
