import FleetErrors
import FleetModel

/// An HTTP request as the REST mapping describes it: verb, path, query and JSON body.
public struct RESTRequest: Sendable, Hashable {
    public var verb: String
    /// The path, percent-encoded.
    public var path: String
    public var query: [(name: String, value: String)]
    public var body: JSON?

    public init(verb: String, path: String, query: [(name: String, value: String)] = [], body: JSON? = nil) {
        self.verb = verb
        self.path = path
        self.query = query
        self.body = body
    }

    public static func == (a: RESTRequest, b: RESTRequest) -> Bool {
        a.verb == b.verb && a.path == b.path && a.body == b.body
            && a.query.map { [$0.name, $0.value] } == b.query.map { [$0.name, $0.value] }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(verb)
        hasher.combine(path)
    }

    /// The path and query as one string.
    public var target: String {
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }.joined(separator: "&")
    }
}

/// Fleet Engine v1's REST mapping (the protos' `google.api.http` rules), both ways: a client turns a
/// call into a request, a server turns a request back into the call.
///
/// Path parameters come from the resource name; `body: "*"` methods send the rest of the request as
/// the body; the others send their singular fields as query parameters (repeated ones repeat, nested
/// ones are dotted: `viewport.low.latitude`), using the JSON (camelCase) names.
public enum RESTMapping {
    // MARK: Client side

    /// The HTTP request for a call.
    public static func request(for call: RESTCall) -> RESTRequest {
        switch call {
        case .createVehicle(let r):
            return RESTRequest(verb: "POST", path: "/v1/\(encode(r.parent))/vehicles",
                               query: item("vehicleId", r.vehicleId), body: r.vehicle?.toJSON() ?? .object([:]))
        case .getVehicle(let r):
            return RESTRequest(verb: "GET", path: "/v1/\(encode(r.name))", query: queryItems(r.toJSON(), dropping: ["name"]))
        case .updateVehicle(let r):
            return RESTRequest(verb: "PUT", path: "/v1/\(encode(r.name))",
                               query: item("updateMask", r.updateMask.map { $0.paths.joined(separator: ",") }),
                               body: r.vehicle?.toJSON() ?? .object([:]))
        case .updateVehicleAttributes(let r):
            return RESTRequest(verb: "POST", path: "/v1/\(encode(r.name)):updateAttributes", body: dropping(["name"], from: r.toJSON()))
        case .listVehicles(let r):
            return RESTRequest(verb: "GET", path: "/v1/\(encode(r.parent))/vehicles", query: queryItems(r.toJSON(), dropping: ["parent"]))
        case .searchVehicles(let r):
            return RESTRequest(verb: "POST", path: "/v1/\(encode(r.parent))/vehicles:search", body: dropping(["parent"], from: r.toJSON()))
        case .deleteVehicle(let r):
            return RESTRequest(verb: "DELETE", path: "/v1/\(encode(r.name))", query: queryItems(r.toJSON(), dropping: ["name"]))
        case .createTrip(let r):
            return RESTRequest(verb: "POST", path: "/v1/\(encode(r.parent))/trips",
                               query: item("tripId", r.tripId), body: r.trip?.toJSON() ?? .object([:]))
        case .getTrip(let r):
            return RESTRequest(verb: "GET", path: "/v1/\(encode(r.name))", query: queryItems(r.toJSON(), dropping: ["name"]))
        case .updateTrip(let r):
            return RESTRequest(verb: "PUT", path: "/v1/\(encode(r.name))",
                               query: item("updateMask", r.updateMask.map { $0.paths.joined(separator: ",") }),
                               body: r.trip?.toJSON() ?? .object([:]))
        case .searchTrips(let r):
            return RESTRequest(verb: "POST", path: "/v1/\(encode(r.parent))/trips:search", body: dropping(["parent"], from: r.toJSON()))
        case .deleteTrip(let r):
            return RESTRequest(verb: "DELETE", path: "/v1/\(encode(r.name))", query: queryItems(r.toJSON(), dropping: ["name"]))
        case .reportBillableTrip(let r):
            return RESTRequest(verb: "POST", path: "/v1/\(encode(r.name)):report", body: dropping(["name"], from: r.toJSON()))
        case .watchTrip(let r):
            return RESTRequest(verb: "GET", path: "/v1/\(encode(r.name)):watch", query: queryItems(r.toJSON(), dropping: ["name"]))
        }
    }

    // MARK: Server side

    /// The call an HTTP request makes. Throws NOT_FOUND (404) for a path Fleet Engine does not serve,
    /// UNIMPLEMENTED (405) for a known path with the wrong verb, and INVALID_ARGUMENT for bad query
    /// parameters or bodies, naming the field.
    public static func call(verb: String, path: String, query: [(name: String, value: String)], body: [UInt8]) throws -> RESTCall {
        let route = try RESTRoute(path: path)
        func allow(_ verbs: String...) throws {
            guard verbs.contains(verb) else {
                throw FleetError(.methodNotAllowed, detail: "\(verb) \(path); this path takes \(verbs.joined(separator: ", "))")
            }
        }
        func json() throws -> JSON {
            guard !body.isEmpty else { return .object([:]) }
            let value = try JSON.parse(body)
            guard case .object = value else {
                throw FleetError.invalidArgument("Invalid JSON payload received. The request body must be a JSON object.", field: nil)
            }
            return value
        }
        func noBody() throws {
            if !body.isEmpty, (try? JSON.parse(body)) != .object([:]) {
                throw FleetError.invalidArgument("\(verb) \(path) takes no request body", field: nil)
            }
        }
        switch (route.collection, route.verb) {
        case (.vehicles, nil) where route.id == nil:
            switch verb {
            case "POST":
                var r = try CreateVehicleRequest(json: query.bound(to: ["vehicleId"], repeated: []), path: "", options: .init())
                r.parent = route.parent
                r.vehicle = try Vehicle(json: json(), path: "vehicle")
                return .createVehicle(r)
            case "GET":
                try noBody()
                var r = try ListVehiclesRequest(json: query.bound(to: ListVehiclesRequest.fieldPaths, repeated: listRepeated,
                                                                  booleans: ["onTripOnly"], numbers: viewportNumbers),
                                                path: "", options: .init())
                r.parent = route.parent
                return .listVehicles(r)
            default: try allow("POST", "GET")
            }
        case (.vehicles, nil):
            switch verb {
            case "GET":
                try noBody()
                var r = try GetVehicleRequest(json: query.bound(to: GetVehicleRequest.fieldPaths, repeated: []), path: "", options: .init())
                r.name = route.name
                return .getVehicle(r)
            case "PUT", "PATCH":
                var r = try UpdateVehicleRequest(json: query.bound(to: ["updateMask"], repeated: []), path: "", options: .init())
                r.name = route.name
                r.vehicle = try Vehicle(json: json(), path: "vehicle")
                return .updateVehicle(r)
            case "DELETE":
                try noBody()
                var r = try DeleteVehicleRequest(json: query.bound(to: ["header"], repeated: []), path: "", options: .init())
                r.name = route.name
                return .deleteVehicle(r)
            default: try allow("GET", "PUT", "DELETE")
            }
        case (.vehicles, "updateAttributes") where route.id != nil:
            try allow("POST")
            var r = try UpdateVehicleAttributesRequest(json: json(), path: "", options: .init())
            r.name = route.name
            return .updateVehicleAttributes(r)
        case (.vehicles, "search") where route.id == nil:
            try allow("POST")
            var r = try SearchVehiclesRequest(json: json(), path: "", options: .init())
            r.parent = route.parent
            return .searchVehicles(r)
        case (.vehicles, "updateLocation"?), (.vehicles, "searchFuzzed"?):
            throw FleetError(.methodNotImplemented, detail: "\(route.verb!) is deprecated in Fleet Engine v1 and not served; use UpdateVehicle and SearchVehicles")
        case (.trips, nil) where route.id == nil:
            try allow("POST")
            var r = try CreateTripRequest(json: query.bound(to: ["tripId"], repeated: []), path: "", options: .init())
            r.parent = route.parent
            r.trip = try Trip(json: json(), path: "trip")
            return .createTrip(r)
        case (.trips, nil):
            switch verb {
            case "GET":
                try noBody()
                var r = try GetTripRequest(json: query.bound(to: GetTripRequest.fieldPaths, repeated: []), path: "", options: .init())
                r.name = route.name
                return .getTrip(r)
            case "PUT", "PATCH":
                var r = try UpdateTripRequest(json: query.bound(to: ["updateMask"], repeated: []), path: "", options: .init())
                r.name = route.name
                r.trip = try Trip(json: json(), path: "trip")
                return .updateTrip(r)
            case "DELETE":
                try noBody()
                var r = try DeleteTripRequest(json: query.bound(to: ["header"], repeated: []), path: "", options: .init())
                r.name = route.name
                return .deleteTrip(r)
            default: try allow("GET", "PUT", "DELETE")
            }
        case (.trips, "search") where route.id == nil:
            try allow("POST")
            var r = try SearchTripsRequest(json: json(), path: "", options: .init())
            r.parent = route.parent
            return .searchTrips(r)
        case (.trips, "watch") where route.id != nil:
            try allow("GET")
            var r = try GetTripRequest(json: query.bound(to: GetTripRequest.fieldPaths, repeated: []), path: "", options: .init())
            r.name = route.name
            return .watchTrip(r)
        case (.billableTrips, "report") where route.id != nil:
            try allow("POST")
            var r = try ReportBillableTripRequest(json: json(), path: "", options: .init())
            r.name = route.name
            return .reportBillableTrip(r)
        default:
            break
        }
        throw FleetError(.unknownPath, detail: "\(verb) \(path)")
    }

    // MARK: Helpers

    static let listRepeated: Set<String> = ["tripTypes", "vehicleTypeCategories", "requiredAttributes",
                                            "requiredOneOfAttributes", "requiredOneOfAttributeSets"]
    static let viewportNumbers: Set<String> = ["viewport.low.latitude", "viewport.low.longitude",
                                               "viewport.high.latitude", "viewport.high.longitude"]

    /// A resource name with each segment percent-encoded ('/' kept between segments).
    static func encode(_ name: String?) -> String {
        (name ?? "").split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.encode(String($0)) }.joined(separator: "/")
    }

    static func item(_ name: String, _ value: String?) -> [(name: String, value: String)] {
        guard let value, !value.isEmpty else { return [] }
        return [(name, value)]
    }

    static func dropping(_ keys: Set<String>, from json: JSON) -> JSON {
        guard case .object(let o) = json else { return json }
        return .object(JSONObject(o.members.filter { !keys.contains($0.key) }.map { ($0.key, $0.value) }))
    }

    /// A request's JSON as query parameters: nested objects dotted, arrays repeated, scalars as text.
    static func queryItems(_ json: JSON, dropping keys: Set<String>) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        func walk(_ value: JSON, _ prefix: String) {
            switch value {
            case .object(let o): for m in o.members { walk(m.value, prefix.isEmpty ? m.key : "\(prefix).\(m.key)") }
            case .array(let a): for v in a { walk(v, prefix) }
            case .string(let s): items.append((prefix, s))
            case .bool(let b): items.append((prefix, b ? "true" : "false"))
            case .number: items.append((prefix, value.serialized()))
            case .null: break
            }
        }
        if case .object(let o) = json {
            for m in o.members where !keys.contains(m.key) { walk(m.value, m.key) }
        }
        return items
    }
}

/// Google's system parameters, which any call may carry and which bind to no field.
private let systemParameters: Set<String> = ["alt", "prettyPrint", "key", "$.xgafv"]

extension Array where Element == (name: String, value: String) {
    /// Query parameters as the JSON of a request message, accepting only the fields named (JSON or
    /// proto names, dotted for nested ones); anything else is INVALID_ARGUMENT as Google words it.
    func bound(to fields: Set<String>, repeated: Set<String>, booleans: Set<String> = [], numbers: Set<String> = []) throws -> JSON {
        var root = JSONObject()
        for (rawName, value) in self {
            if systemParameters.contains(rawName) { continue }
            let name = FieldMask.camelCase(rawName)
            // Never empty (`"."` splits into two empty segments), so `path[0]` exists; an empty segment names no field.
            let path = name.utf8.contains(UInt8(ascii: ".")) ? name.split(separator: ".", omittingEmptySubsequences: false).map(String.init) : [name]
            // Bound before binding: each segment is one level of the JSON built (and freed by recursion).
            guard path.count <= JSON.defaultMaxDepth else {
                throw FleetError.invalidArgument("Query parameter '\(rawName.prefix(64))…' nests \(path.count) fields deep; at most \(JSON.defaultMaxDepth) are allowed", field: path[0])
            }
            guard !path.contains(where: \.isEmpty), fields.contains(path[0]) || fields.contains(name) else {
                throw FleetError.invalidArgument("Invalid JSON payload received. Unknown name \"\(rawName)\": Cannot bind query parameter. Field '\(rawName)' could not be found in request message.", field: rawName)
            }
            let leaf: JSON
            if booleans.contains(name) {
                guard value == "true" || value == "false" else {
                    throw FleetError.invalidArgument("Invalid value at '\(name)' (TYPE_BOOL), \"\(value)\"", field: name)
                }
                leaf = .bool(value == "true")
            } else if numbers.contains(name) {
                guard let number = Double(value) else {
                    throw FleetError.invalidArgument("Invalid value at '\(name)' (TYPE_DOUBLE), \"\(value)\"", field: name)
                }
                leaf = .number(number)
            } else {
                leaf = .string(value)
            }
            root.insert(path: path, leaf, repeated: repeated.contains(name))
        }
        return .object(root)
    }
}

extension JSONObject {
    /// Sets a dotted path, appending for repeated fields.
    mutating func insert(path: [String], _ value: JSON, repeated: Bool) {
        guard let first = path.first else { return }
        if path.count == 1 {
            if repeated {
                if case .array(var a)? = self[first] { a.append(value); self[first] = .array(a) } else { self[first] = .array([value]) }
            } else {
                self[first] = value
            }
            return
        }
        var child: JSONObject
        if case .object(let existing)? = self[first] { child = existing } else { child = JSONObject() }
        child.insert(path: Array(path.dropFirst()), value, repeated: repeated)
        self[first] = .object(child)
    }
}
