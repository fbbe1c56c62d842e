import FleetAuth
import FleetModel

/// One Fleet Engine call with its typed request: what travels over REST.
public enum RESTCall: Sendable, Hashable {
    case createVehicle(CreateVehicleRequest)
    case getVehicle(GetVehicleRequest)
    case updateVehicle(UpdateVehicleRequest)
    case updateVehicleAttributes(UpdateVehicleAttributesRequest)
    case listVehicles(ListVehiclesRequest)
    case searchVehicles(SearchVehiclesRequest)
    case deleteVehicle(DeleteVehicleRequest)
    case createTrip(CreateTripRequest)
    case getTrip(GetTripRequest)
    case updateTrip(UpdateTripRequest)
    case searchTrips(SearchTripsRequest)
    case deleteTrip(DeleteTripRequest)
    case reportBillableTrip(ReportBillableTripRequest)
    /// Our streaming extension: `GET /v1/{name=providers/*/trips/*}:watch`, server-sent events.
    case watchTrip(GetTripRequest)

    /// The RPC, as the authorization matrix names it.
    public var method: FleetMethod {
        switch self {
        case .createVehicle: .createVehicle
        case .getVehicle: .getVehicle
        case .updateVehicle: .updateVehicle
        case .updateVehicleAttributes: .updateVehicleAttributes
        case .listVehicles: .listVehicles
        case .searchVehicles: .searchVehicles
        case .deleteVehicle: .deleteVehicle
        case .createTrip: .createTrip
        case .getTrip: .getTrip
        case .updateTrip: .updateTrip
        case .searchTrips: .searchTrips
        case .deleteTrip: .deleteTrip
        case .reportBillableTrip: .reportBillableTrip
        case .watchTrip: .watchTrip
        }
    }

    /// Whether sending the call twice has the effect of sending it once, so a client may retry it
    /// after a failure that may have reached the server. Creates and billing reports are not.
    public var isIdempotent: Bool {
        switch self {
        case .createVehicle, .createTrip, .reportBillableTrip: false
        default: true
        }
    }
}
