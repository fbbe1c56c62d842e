import FleetInterface
import FleetModel

/// The `authorization` claim of a Fleet Engine JWT: which vehicle, trip, delivery vehicle, task or
/// shipment the token is for. `*` (``wildcard``) stands for every one; a missing member means the
/// token names none.
///
/// Keys as Fleet Engine and Google's java-fleetengine-auth write them: `vehicleid`, `tripid` (on-demand
/// rides), `deliveryvehicleid`, `taskid`, `trackingid` (Deliveries). `scope[kind]` (`ResourceIDs`) is
/// the claim for a kind of resource.
public struct AuthorizationScope: ResourceIDs, Sendable, Hashable {
    /// The wildcard that matches every ID (server and fleet-reader tokens).
    public static let wildcard = "*"

    /// `vehicleid`: the vehicle a driver token is for.
    public var vehicleID: String?
    /// `tripid`: the trip a consumer token is for.
    public var tripID: String?
    /// `deliveryvehicleid`: the delivery vehicle a (trusted or untrusted) delivery driver token is for.
    public var deliveryVehicleID: String?
    /// `taskid`: the task a trusted delivery driver token may update.
    public var taskID: String?
    /// `trackingid`: the shipment a delivery consumer token may follow (GetTaskTrackingInfo).
    public var trackingID: String?
    /// Other members of the claim, in order.
    public var additional: JSONObject

    /// A scope naming the given IDs.
    public init(vehicleID: String? = nil, tripID: String? = nil, deliveryVehicleID: String? = nil, taskID: String? = nil,
                trackingID: String? = nil, additional: JSONObject = JSONObject()) {
        self.vehicleID = vehicleID
        self.tripID = tripID
        self.deliveryVehicleID = deliveryVehicleID
        self.taskID = taskID
        self.trackingID = trackingID
        self.additional = additional
    }

    /// Every ID a wildcard (what server and fleet-reader tokens carry, as java-fleetengine-auth's
    /// server and fleet-reader claims do).
    public static let everything = AuthorizationScope(vehicleID: wildcard, tripID: wildcard, deliveryVehicleID: wildcard,
                                                      taskID: wildcard, trackingID: wildcard)

    /// The claim member naming resources of `kind` (`deliveryvehicleid` for `.deliveryVehicle`,
    /// `trackingid` for `.taskTrackingInfo`).
    public static func claimName(of kind: FleetMethod.Resource) -> String {
        switch kind {
        case .vehicle: "vehicleid"
        case .trip: "tripid"
        case .deliveryVehicle: "deliveryvehicleid"
        case .task: "taskid"
        case .taskTrackingInfo: "trackingid"
        }
    }

    /// Whether the claim for `kind` names `id` or is the wildcard; false when the claim is absent.
    public func names(_ id: String, of kind: FleetMethod.Resource) -> Bool {
        guard let claimed = self[kind] else { return false }
        return claimed == Self.wildcard || claimed == id
    }

    /// The known members that are set, in claim order (`vehicleid`, `tripid`, `deliveryvehicleid`,
    /// `taskid`, `trackingid`): what a token is scoped to.
    public var members: [(claim: String, id: String)] {
        FleetMethod.Resource.allCases.compactMap { kind in self[kind].map { (Self.claimName(of: kind), $0) } }
    }

    /// Reads the claim's object; each known member must be a string.
    /// - Throws: UNAUTHENTICATED `.jwtMalformed` naming the member.
    init(json object: JSONObject) throws {
        self.init()
        for member in object {
            if let kind = FleetMethod.Resource.allCases.first(where: { Self.claimName(of: $0) == member.key }) {
                self[kind] = try JWTMemberReader.string(member.value, name: "authorization.\(member.key)")
            } else {
                additional[member.key] = member.value
            }
        }
    }

    /// The claim as a JSON object (only the members that are set, known ones first).
    var json: JSONObject {
        var object = JSONObject()
        for member in members { object[member.claim] = .string(member.id) }
        for member in additional where !object.contains(member.key) { object[member.key] = member.value }
        return object
    }
}
