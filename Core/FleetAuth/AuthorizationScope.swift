import FleetModel

/// The `authorization` claim of a Fleet Engine JWT: which vehicle, trip, task or delivery vehicle the
/// token is for. `*` (``wildcard``) stands for every one; a missing member means the token names none.
///
/// Keys as Fleet Engine and Google's java-fleetengine-auth write them: `vehicleid`, `tripid`, `taskid`,
/// `deliveryvehicleid`.
public struct AuthorizationScope: Sendable, Hashable {
    /// The wildcard that matches every ID (server and fleet-reader tokens).
    public static let wildcard = "*"

    /// `vehicleid`: the vehicle a driver token is for.
    public var vehicleID: String?
    /// `tripid`: the trip a consumer token is for.
    public var tripID: String?
    /// `taskid` (Last Mile Fleet Solution tokens; kept, not used by on-demand rides).
    public var taskID: String?
    /// `deliveryvehicleid` (Last Mile Fleet Solution tokens; kept, not used by on-demand rides).
    public var deliveryVehicleID: String?
    /// Other members of the claim, in order.
    public var additional: JSONObject

    /// A scope naming the given IDs.
    public init(vehicleID: String? = nil, tripID: String? = nil, taskID: String? = nil, deliveryVehicleID: String? = nil,
                additional: JSONObject = JSONObject()) {
        self.vehicleID = vehicleID
        self.tripID = tripID
        self.taskID = taskID
        self.deliveryVehicleID = deliveryVehicleID
        self.additional = additional
    }

    /// Every ID a wildcard (what server and fleet-reader tokens carry).
    public static let everything = AuthorizationScope(vehicleID: wildcard, tripID: wildcard, taskID: wildcard, deliveryVehicleID: wildcard)

    /// Whether the vehicle ID claim names `vehicleID` or is the wildcard; false when the claim is absent.
    public func names(vehicleID: String) -> Bool { Self.matches(self.vehicleID, vehicleID) }

    /// Whether the trip ID claim names `tripID` or is the wildcard; false when the claim is absent.
    public func names(tripID: String) -> Bool { Self.matches(self.tripID, tripID) }

    private static func matches(_ claimed: String?, _ requested: String) -> Bool {
        guard let claimed else { return false }
        return claimed == wildcard || claimed == requested
    }

    /// Reads the claim's object; each known member must be a string.
    /// - Throws: UNAUTHENTICATED `.jwtMalformed` naming the member.
    init(json object: JSONObject) throws {
        self.init()
        for member in object {
            let name = "authorization.\(member.key)"
            switch member.key {
            case "vehicleid": vehicleID = try JWTMemberReader.string(member.value, name: name)
            case "tripid": tripID = try JWTMemberReader.string(member.value, name: name)
            case "taskid": taskID = try JWTMemberReader.string(member.value, name: name)
            case "deliveryvehicleid": deliveryVehicleID = try JWTMemberReader.string(member.value, name: name)
            default: additional[member.key] = member.value
            }
        }
    }

    /// The claim as a JSON object (only the members that are set).
    var json: JSONObject {
        var object = JSONObject()
        if let vehicleID { object["vehicleid"] = .string(vehicleID) }
        if let tripID { object["tripid"] = .string(tripID) }
        if let taskID { object["taskid"] = .string(taskID) }
        if let deliveryVehicleID { object["deliveryvehicleid"] = .string(deliveryVehicleID) }
        for member in additional where !object.contains(member.key) { object[member.key] = member.value }
        return object
    }
}
