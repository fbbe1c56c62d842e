import FleetErrors
import FleetInterface
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

/// Fleet Engine v1's REST mapping (the protos' `google.api.http` rules, `FleetMethod.http`), both ways: a
/// client turns a call into a request, a server turns a request back into the call. Nothing here names a
/// method: every rule comes from the method table.
///
/// Path parameters come from the resource name; `body: "*"` methods send the rest of the request as
/// the body; the others send their singular fields as query parameters (repeated ones repeat, nested
/// ones are dotted: `viewport.low.latitude`), using the JSON (camelCase) names.
public enum RESTMapping {
    /// What the server reads from a method's rule, worked out once per method rather than on every call.
    struct Route: Sendable {
        let method: FleetMethod
        /// The rule's path template, parsed.
        let template: PathTemplate
        /// The request field the body binds, by its JSON name (`deliveryVehicle`); nil when the whole
        /// request is the body (`body: "*"`) or the method takes none.
        let bodyField: String?
        /// The query parameters the method binds; nil when the whole request is the body.
        let queryFields: QueryFields?
        /// The path's field inside the body (`["name"]` of `deliveryVehicle.name`), set on the body
        /// before it joins the request; nil when the path's field is a field of the request itself.
        let pathFieldInBody: [String]?

        init(_ method: FleetMethod) {
            self.method = method
            template = PathTemplate(method.http.path)
            let body = method.http.body
            bodyField = body.isEmpty || body == "*" ? nil : FieldMask.camelCase(body)
            queryFields = method.queryFields
            let fieldPath = template.fieldPath
            pathFieldInBody = bodyField != nil && fieldPath.count > 1 && fieldPath[0] == bodyField ? Array(fieldPath.dropFirst()) : nil
        }
    }

    /// Every method's route, in table order.
    static let routes: [Route] = FleetMethod.allCases.map(Route.init)
    /// The indices in `routes` of each shape's routes, in table order: a request is matched
    /// against the few of its path's shape (at most three), wherever they stand in the table.
    static let routesByShape: [PathShape: [Int]] = Dictionary(grouping: routes.indices) { routes[$0].template.shape }
    /// The retired methods' templates.
    static let retired: [(method: RetiredMethod, template: PathTemplate)] = FleetMethod.retired.map { ($0, PathTemplate($0.rest.path)) }

    /// A method's route.
    static func route(of method: FleetMethod) -> Route {
        routes[FleetMethod.allCases.firstIndex(of: method)!]
    }

    // MARK: Client side

    /// The HTTP request for a call.
    public static func request(for call: FleetCall) -> RESTRequest {
        let rule = call.method.http
        let route = route(of: call.method)
        let template = route.template
        // The path's field leaves the request, as Google's transcoding does: `name`, or the nested
        // `deliveryVehicle.name` of an update whose body is the resource.
        var json = call.requestJSON
        var name = ""
        if case .string(let value)? = json.removeValue(at: template.fieldPath) { name = value }
        let path = template.expand(name)
        switch rule.body {
        case "*":
            return RESTRequest(verb: rule.verb, path: path, body: json)
        case "":
            return RESTRequest(verb: rule.verb, path: path, query: queryItems(json, dropping: []))
        default:
            let field = route.bodyField ?? ""
            return RESTRequest(verb: rule.verb, path: path, query: queryItems(json, dropping: [field]),
                               body: json[field] ?? .object([:]))
        }
    }

    // MARK: Server side

    /// The call an HTTP request makes. Throws NOT_FOUND (404) for a path Fleet Engine does not serve,
    /// UNIMPLEMENTED (405) for a known path with the wrong verb, UNIMPLEMENTED (501) for a retired
    /// method, and INVALID_ARGUMENT for bad query parameters or bodies, naming the field.
    public static func call(verb: String, path: String, query: [(name: String, value: String)], body: [UInt8]) throws -> FleetCall {
        let raw = RawPath(path)
        var matched: [(route: Int, name: String)] = []
        for index in routesByShape[raw.shape] ?? [] {
            if let name = routes[index].template.match(raw) { matched.append((index, name)) }
        }
        guard !matched.isEmpty else {
            if let (method, _) = retired.first(where: { $0.template.match(raw) != nil }) {
                throw FleetError(.methodNotImplemented, detail: "\(method.name) is \(method.reason)")
            }
            throw FleetError(.unknownPath, detail: "\(verb) \(path)")
        }
        guard let (index, name) = matched.first(where: { answers(routes[$0.route].method.http.verb, verb) }) else {
            let verbs = matched.map { routes[$0.route].method.http.verb }
            throw FleetError(.methodNotAllowed, detail: "\(verb) \(path); this path takes \(verbs.joined(separator: ", "))")
        }
        let route = routes[index]
        func json() throws -> JSONObject {
            guard !body.isEmpty else { return [:] }
            guard case .object(let object) = try JSON.parse(body) else {
                throw FleetError.invalidArgument("Invalid JSON payload received. The request body must be a JSON object.", field: nil)
            }
            return object
        }
        var request: JSONObject
        if let fields = route.queryFields {
            request = try query.bound(to: fields.fields, repeated: fields.repeated, booleans: fields.booleans, numbers: fields.numbers)
            if let bodyField = route.bodyField {
                var object = try json()
                // The path's field, when it lies in the body (`deliveryVehicle.name`): the path wins
                // over a name the body may also carry.
                if let inBody = route.pathFieldInBody {
                    object.insert(path: inBody, .string(name), repeated: false)
                }
                request[bodyField] = .object(object)
            } else if !body.isEmpty, (try? JSON.parse(body)) != .object([:]) {
                throw FleetError.invalidArgument("\(verb) \(path) takes no request body", field: nil)
            }
        } else {
            // The whole request is the body: a query parameter other than a system one binds nothing.
            _ = try query.bound(to: [], repeated: [])
            request = try json()
        }
        // The path's field of the request itself (`name`, `parent`): the path wins over the body's.
        if route.pathFieldInBody == nil {
            request.insert(path: route.template.fieldPath, .string(name), repeated: false)
        }
        return try FleetCall(method: route.method, json: .object(request))
    }

    // MARK: System parameters

    /// How a REST call asks for its answer to be written: the `$alt` system parameter (also spelled
    /// `alt`), which Google's REST clients send on every call as `json;enum-encoding=int`. `json`,
    /// the default, writes enums by name; `json;enum-encoding=int` by number. Any other value (`proto`,
    /// `media`, `sse`: formats this server does not write), or two that differ, is INVALID_ARGUMENT
    /// naming the parameter.
    public static func encoding(query: [(name: String, value: String)]) throws -> EncodingOptions {
        var chosen: (name: String, value: String)?
        for parameter in query where parameter.name == "$alt" || parameter.name == "alt" {
            if let chosen, chosen.value != parameter.value {
                throw FleetError.invalidArgument("System parameter '\(parameter.name)' is given twice with different values: \"\(chosen.value)\" and \"\(parameter.value)\"", field: parameter.name)
            }
            chosen = parameter
        }
        guard let chosen else { return EncodingOptions() }
        var options = chosen.value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let format = options.removeFirst()
        var encoding = EncodingOptions()
        guard format == "json" else {
            throw FleetError.invalidArgument("Invalid value at '\(chosen.name)': \"\(chosen.value)\"; this server answers json only (\"json\" or \"json;enum-encoding=int\")", field: chosen.name)
        }
        for option in options {
            guard option == "enum-encoding=int" else {
                throw FleetError.invalidArgument("Invalid value at '\(chosen.name)': \"\(chosen.value)\"; the one option of json is \"enum-encoding=int\"", field: chosen.name)
            }
            encoding.enumsAsNumbers = true
        }
        return encoding
    }

    /// Whether a rule's verb answers a request's: its own, and PATCH where the rule says PUT (an update
    /// mask makes the two the same).
    static func answers(_ ruleVerb: String, _ verb: String) -> Bool {
        verb == ruleVerb || (ruleVerb == "PUT" && verb == "PATCH")
    }

    // MARK: Helpers

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

/// Google's system parameters, which any call may carry and which bind to no field, by both their
/// spellings (`alt` and `$alt`); `RESTMapping.encoding(query:)` reads `$alt`.
private let systemParameters: Set<String> = ["alt", "$alt", "prettyPrint", "$prettyPrint", "key", "$key", "$.xgafv"]

extension Array where Element == (name: String, value: String) {
    /// Query parameters as the JSON of a request message, accepting only the fields named (JSON or
    /// proto names, dotted for nested ones); anything else is INVALID_ARGUMENT as Google words it.
    func bound(to fields: Set<String>, repeated: Set<String>, booleans: Set<String> = [], numbers: Set<String> = []) throws -> JSONObject {
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
        return root
    }
}

extension JSON {
    /// Removes the value at a path of object members (`["deliveryVehicle", "name"]`) and returns it;
    /// nil (and no change) when there is none.
    mutating func removeValue(at path: [String]) -> JSON? {
        guard case .object(var object) = self, let first = path.first, var child = object[first] else { return nil }
        let removed: JSON?
        if path.count == 1 {
            removed = child
            object[first] = nil
        } else {
            removed = child.removeValue(at: Array(path.dropFirst()))
            object[first] = child
        }
        self = .object(object)
        return removed
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
