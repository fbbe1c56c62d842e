import FleetErrors
import FleetModel

/// One accepted location update of a vehicle (rides or Deliveries), as the history extension returns
/// it (Fleet Engine keeps no history; this is the project's own). Its JSON, one object per point in REST answers
/// and in `fleet-admin history --format jsonl`:
///
/// ```
/// {"vehicleId":"v1","time":"2026-11-28T08:00:00Z","location":{"latitude":60.17,"longitude":24.94},
///  "accuracy":4,"speed":8.5,"heading":90,"vehicleState":"ONLINE","tripIds":["t1"]}
/// ```
/// `accuracy` in metres, `speed` in metres per second, `heading` in degrees clockwise from north;
/// each left out when the device gave none.
public struct PositionRecord: Sendable, Hashable {
    public var vehicleID: String
    /// When the vehicle was there (the location's update time).
    public var time: Timestamp
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double?
    public var speedMetersPerSecond: Double?
    public var headingDegrees: Double?
    public var vehicleState: VehicleState?
    /// The trips the vehicle was serving.
    public var tripIDs: [String]

    public init(vehicleID: String, time: Timestamp, latitude: Double, longitude: Double, accuracyMeters: Double? = nil,
                speedMetersPerSecond: Double? = nil, headingDegrees: Double? = nil, vehicleState: VehicleState? = nil,
                tripIDs: [String] = []) {
        self.vehicleID = vehicleID
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.headingDegrees = headingDegrees
        self.vehicleState = vehicleState
        self.tripIDs = tripIDs
    }

    /// The point as JSON (see the type's description).
    public var json: JSON {
        var object: JSONObject = [
            "vehicleId": .string(vehicleID),
            "time": time.protoJSON,
            "location": ["latitude": .number(latitude), "longitude": .number(longitude)],
        ]
        if let accuracyMeters { object.appendNew(key: "accuracy", value: .number(accuracyMeters)) }
        if let speedMetersPerSecond { object.appendNew(key: "speed", value: .number(speedMetersPerSecond)) }
        if let headingDegrees { object.appendNew(key: "heading", value: .number(headingDegrees)) }
        if let vehicleState { object.appendNew(key: "vehicleState", value: .string(vehicleState.name)) }
        if !tripIDs.isEmpty { object.appendNew(key: "tripIds", value: .array(tripIDs.map(JSON.string))) }
        return .object(object)
    }

    /// Reads the JSON `json` writes; `field` names the point in errors.
    /// - Throws: INVALID_ARGUMENT naming the field that is missing or of the wrong type.
    public init(json: JSON, field: String) throws {
        guard let object = json.objectValue else {
            throw FleetError.invalidArgument("\(field) must be an object", field: field)
        }
        func number(_ key: String) throws -> Double? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let number = value.doubleValue else {
                throw FleetError.invalidArgument("\(field).\(key) must be a number", field: "\(field).\(key)")
            }
            return number
        }
        guard let id = object["vehicleId"]?.stringValue else {
            throw FleetError.invalidArgument("\(field).vehicleId is required", field: "\(field).vehicleId")
        }
        guard let timeText = object["time"]?.stringValue else {
            throw FleetError.invalidArgument("\(field).time is required", field: "\(field).time")
        }
        guard let location = object["location"]?.objectValue,
              let latitude = location["latitude"]?.doubleValue, let longitude = location["longitude"]?.doubleValue else {
            throw FleetError.invalidArgument("\(field).location needs a latitude and a longitude", field: "\(field).location")
        }
        self.init(vehicleID: id, time: try Timestamp(rfc3339: timeText, field: "\(field).time"), latitude: latitude, longitude: longitude,
                  accuracyMeters: try number("accuracy"), speedMetersPerSecond: try number("speed"), headingDegrees: try number("heading"),
                  vehicleState: object["vehicleState"]?.stringValue.map(VehicleState.init(name:)),
                  tripIDs: object["tripIds"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}

/// Which part of the position history to read: a vehicle's points (`providers/P/vehicles/V`),
/// optionally of one trip, a trip's driven path (`providers/P/trips/T`), or a delivery vehicle's
/// points (`providers/P/deliveryVehicles/D`), within a time span.
public struct HistoryRequest: Sendable, Hashable {
    /// `providers/{provider}/vehicles/{vehicle}`, `providers/{provider}/trips/{trip}` or
    /// `providers/{provider}/deliveryVehicles/{deliveryVehicle}` (``HistorySubject``).
    public var name: String
    /// With a rides vehicle's name: only the points that served this trip.
    public var tripID: String?
    /// The span: from inclusive, to exclusive; nil leaves that end open.
    public var from: Timestamp?
    public var to: Timestamp?
    /// Points per page (default and largest: `HistoryRequest.maximumPageSize`).
    public var pageSize: Int?
    /// The `nextPageToken` of the page before.
    public var pageToken: String?

    /// The largest page, and the size of a page when none is asked.
    public static let maximumPageSize = 10_000

    public init(name: String, tripID: String? = nil, from: Timestamp? = nil, to: Timestamp? = nil,
                pageSize: Int? = nil, pageToken: String? = nil) {
        self.name = name
        self.tripID = tripID
        self.from = from
        self.to = to
        self.pageSize = pageSize
        self.pageToken = pageToken
    }
}

/// Whose history a `HistoryRequest` names.
public enum HistorySubject: Sendable, Hashable {
    case vehicle(VehicleName)
    case trip(TripName)
    case deliveryVehicle(DeliveryVehicleName)

    /// The subject of `providers/P/vehicles/V`, `providers/P/trips/T` or `providers/P/deliveryVehicles/D`.
    /// - Throws: INVALID_ARGUMENT naming `field` when the name is none of them.
    public init(parsing name: String, field: String = "name") throws {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count == 4 ? parts[2] : "" {
        case "trips": self = .trip(try TripName(parsing: name, field: field))
        case "deliveryVehicles": self = .deliveryVehicle(try DeliveryVehicleName(parsing: name, field: field))
        default: self = .vehicle(try VehicleName(parsing: name, field: field))
        }
    }
}

/// One page of points in time order, and the token of the next page (nil on the last).
public struct HistoryPage: Sendable, Hashable {
    public var points: [PositionRecord]
    public var nextPageToken: String?

    public init(points: [PositionRecord], nextPageToken: String? = nil) {
        self.points = points
        self.nextPageToken = nextPageToken
    }

    /// `{"points":[…],"nextPageToken":"…"}`.
    public var json: JSON {
        var object: JSONObject = ["points": .array(points.map(\.json))]
        if let nextPageToken { object.appendNew(key: "nextPageToken", value: .string(nextPageToken)) }
        return .object(object)
    }

    /// Reads the JSON `json` writes.
    public init(json: JSON) throws {
        guard let object = json.objectValue else {
            throw FleetError.invalidArgument("a history page must be a JSON object", field: "points")
        }
        let points = object["points"]?.arrayValue ?? []
        self.init(points: try points.enumerated().map { try PositionRecord(json: $1, field: "points[\($0)]") },
                  nextPageToken: object["nextPageToken"]?.stringValue)
    }
}

/// Reads the position history: the engine from its store, the `http` transport from the server's
/// history extension (`GET /v1/{name}:history`).
public protocol HistoryReading: Sendable {
    /// One page of the points `request` names, in time order.
    /// - Throws: INVALID_ARGUMENT for a malformed name, span, page size or token; NOT_FOUND for a
    ///   trip that does not exist.
    func history(_ request: HistoryRequest) throws -> HistoryPage
}

extension HistoryReading {
    /// Calls `body` with every point `request` names, page after page, in time order.
    public func forEachPosition(_ request: HistoryRequest, _ body: (PositionRecord) throws -> Void) throws {
        var request = request
        while true {
            let page = try history(request)
            for point in page.points { try body(point) }
            guard let token = page.nextPageToken, !token.isEmpty else { return }
            request.pageToken = token
        }
    }
}

extension HistoryRequest {
    /// The query parameters of the REST form, `GET /v1/{name}:history`: `tripId`, `from`, `to`
    /// (RFC 3339), `pageSize`, `pageToken`, those set, in that order.
    public var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let tripID { items.append(("tripId", tripID)) }
        if let from { items.append(("from", from.rfc3339String)) }
        if let to { items.append(("to", to.rfc3339String)) }
        if let pageSize { items.append(("pageSize", String(pageSize))) }
        if let pageToken, !pageToken.isEmpty { items.append(("pageToken", pageToken)) }
        return items
    }

    /// The request a REST call names: the resource name from its path, the rest from `queryItems`.
    /// - Throws: INVALID_ARGUMENT naming an unknown, repeated or malformed parameter.
    public init(name: String, queryItems: [(name: String, value: String)]) throws {
        self.init(name: name)
        var seen = Set<String>()
        for (key, value) in queryItems {
            guard seen.insert(key).inserted else {
                throw FleetError.invalidArgument("\(key) is given twice", field: key)
            }
            switch key {
            case "tripId": tripID = value
            case "from": from = try Timestamp(rfc3339: value, field: "from")
            case "to": to = try Timestamp(rfc3339: value, field: "to")
            case "pageSize":
                guard let size = Int(value) else {
                    throw FleetError.invalidArgument("pageSize must be a whole number, got '\(value)'", field: "pageSize")
                }
                pageSize = size
            case "pageToken": pageToken = value
            default:
                throw FleetError.invalidArgument("Unknown name \"\(key)\": Cannot bind query parameter; a history takes tripId, from, to, pageSize and pageToken", field: key)
            }
        }
    }
}
