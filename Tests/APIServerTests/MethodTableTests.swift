import APIServer
import FleetAuth
import FleetErrors
import FleetInterface
import FleetModel
import FleetREST
import JournalTransport
import Testing

/// The method table (`FleetMethod`, generated from Google's service descriptors) is where every transport
/// takes its methods from: each method is routed over REST both ways and registered over gRPC (streams
/// excepted), the authorization matrix has its row, and a journal records exactly the journaled ones.
@Suite struct MethodTableTests {
    /// A call of `method` whose path field names a resource of the method's pattern (`providers/p1/vehicles/id1`),
    /// nested where the rule binds a field of the body (`delivery_vehicle.name`).
    static func sampleCall(_ method: FleetMethod) throws -> FleetCall {
        let path = method.http.path
        let inner = path[path.index(after: path.firstIndex(of: "{")!)..<path.firstIndex(of: "}")!].split(separator: "=")
        var wildcards = ["p1", "id1"].makeIterator()
        let name = inner[1].split(separator: "/").map { $0 == "*" ? wildcards.next()! : String($0) }.joined(separator: "/")
        let field = inner[0].split(separator: ".").map(String.init)
        var request = JSONObject()
        // A body that is one field (`vehicle`) always arrives, `{}` at least.
        if !["", "*"].contains(method.http.body) { request[method.http.body] = .object([:]) }
        if field.count == 2 {
            guard case .object(var body)? = request[field[0]] else { throw FleetError(.internalFault, detail: "\(method): \(field[0]) is not the body") }
            body[field[1]] = .string(name)
            request[field[0]] = .object(body)
        } else {
            request[field[0]] = .string(name)
        }
        return try FleetCall(method: method, json: .object(request))
    }

    /// The gRPC service a method belongs to, by the resource it works on.
    static func service(of method: FleetMethod) -> String {
        switch method.resource {
        case .vehicle: "maps.fleetengine.v1.VehicleService"
        case .trip: "maps.fleetengine.v1.TripService"
        case .deliveryVehicle, .task, .taskTrackingInfo: "maps.fleetengine.delivery.v1.DeliveryService"
        }
    }

    @Test(arguments: FleetMethod.allCases)
    func everyMethodIsRoutedOverRESTBothWays(method: FleetMethod) throws {
        let call = try Self.sampleCall(method)
        let request = RESTMapping.request(for: call)
        #expect(request.verb == method.http.verb)
        let body = request.body.map { $0.serializedBytes() } ?? []
        let back = try RESTMapping.call(verb: request.verb, path: request.path, query: request.query, body: body)
        #expect(back == call)
    }

    @Test(arguments: FleetMethod.allCases)
    func everyUnaryMethodIsServedOverGRPC(method: FleetMethod) throws {
        guard let path = method.grpcPath else {
            #expect(method.isStream, "only streams, served over REST, have no gRPC method")
            return
        }
        #expect(FleetGRPCService.methodPaths.contains(path))
        let service = Self.service(of: method)
        #expect(path == "/\(service)/\(method.rawValue)")
        #expect(FleetMethod.services.contains(service))
        let call = try Self.sampleCall(method)
        #expect(try FleetGRPCService.call(method: path, message: call.request.protobufBytes()) == call)
        // The request message is the one Google's descriptor names for the method, in the service's package.
        let package = service.split(separator: ".").dropLast().joined(separator: ".")
        #expect(type(of: call.request).protoMessageName == "\(package).\(method.rawValue)Request")
    }

    @Test func aRulesPathBindsAFieldOfItsBody() throws {
        // UpdateDeliveryVehicle: `PATCH /v1/{delivery_vehicle.name=providers/*/deliveryVehicles/*}`, body `delivery_vehicle`.
        let call = try RESTMapping.call(verb: "PATCH", path: "/v1/providers/p1/deliveryVehicles/v%201",
                                        query: [("updateMask", "navigationStatus"), ("$alt", "json;enum-encoding=int")],
                                        body: Array(#"{"name":"providers/p1/deliveryVehicles/other","navigationStatus":2}"#.utf8))
        guard case .updateDeliveryVehicle(let request) = call else { Issue.record("routed to \(call.method)"); return }
        #expect(request.deliveryVehicle?.name == "providers/p1/deliveryVehicles/v 1", "the path's name wins over the body's")
        #expect(request.deliveryVehicle?.navigationStatus == .enrouteToDestination, "an enum sent as its number")
        #expect(request.updateMask?.paths == ["navigationStatus"])
        // The client side takes the name out of the body and into the path, as Google's transcoding does.
        let sent = RESTMapping.request(for: call)
        #expect(sent.verb == "PATCH" && sent.path == "/v1/providers/p1/deliveryVehicles/v%201")
        #expect(sent.body == .object(["navigationStatus": .string("ENROUTE_TO_DESTINATION")]))
        let error = #expect(throws: FleetError.self) {
            try RESTMapping.call(verb: "PUT", path: "/v1/providers/p1/tasks/t1", query: [], body: Array("{}".utf8))
        }
        #expect(error?.code == .unimplemented, "UpdateTask is PATCH only: \(String(describing: error))")
    }

    @Test func theAltSystemParameterChoosesHowEnumsAreWritten() throws {
        #expect(try RESTMapping.encoding(query: []) == EncodingOptions())
        #expect(try RESTMapping.encoding(query: [("$alt", "json")]) == EncodingOptions())
        #expect(try RESTMapping.encoding(query: [("alt", "json")]) == EncodingOptions())
        #expect(try RESTMapping.encoding(query: [("$alt", "json;enum-encoding=int")]) == EncodingOptions(enumsAsNumbers: true))
        #expect(try RESTMapping.encoding(query: [("$alt", "json;enum-encoding=int"), ("alt", "json;enum-encoding=int")]).enumsAsNumbers)
        for (name, value) in [("$alt", "proto"), ("$alt", "media"), ("alt", "sse"), ("$alt", ""), ("$alt", "json;enum-encoding=string"),
                              ("$alt", "json;pretty"), ("$alt", "json;")] {
            let error = #expect(throws: FleetError.self) { try RESTMapping.encoding(query: [(name, value)]) }
            #expect(error?.code == .invalidArgument && error?.field == name && error?.message.contains(name) == true, "\(name)=\(value): \(String(describing: error))")
        }
        let twice = #expect(throws: FleetError.self) { try RESTMapping.encoding(query: [("$alt", "json"), ("alt", "json;enum-encoding=int")]) }
        #expect(twice?.field == "alt")
        // A system parameter binds no field, on calls with a query and on calls whose whole request is the body.
        for (verb, path) in [("GET", "/v1/providers/p1/tasks/t1"), ("POST", "/v1/providers/p1/tasks:batchCreate")] {
            _ = try RESTMapping.call(verb: verb, path: path, query: [("$alt", "json;enum-encoding=int")], body: verb == "POST" ? Array("{}".utf8) : [])
        }
        let unknown = #expect(throws: FleetError.self) {
            try RESTMapping.call(verb: "POST", path: "/v1/providers/p1/tasks:batchCreate", query: [("taskId", "t1")], body: Array("{}".utf8))
        }
        #expect(unknown?.field == "taskId", "an all-body call binds no query parameter: \(String(describing: unknown))")
    }

    @Test func theGRPCServiceServesNothingButTheTable() {
        #expect(FleetGRPCService.methodPaths == FleetMethod.allCases.compactMap(\.grpcPath).sorted())
    }

    @Test func aJournalRecordsExactlyTheWritesOfTheTable() throws {
        #expect(JournalRecord.methods == FleetMethod.allCases.filter { !$0.isReadOnly }.map(\.rawValue))
        for method in FleetMethod.allCases where method.isJournaled {
            let record = JournalRecord(sequence: 1, at: Timestamp(seconds: 0), call: try Self.sampleCall(method))
            let read = try JournalRecord(line: record.line.dropLast(), lineNumber: 1, source: "test")
            #expect(read == record)
        }
    }

    @Test func theMatrixHasARowPerMethod() {
        #expect(Authorizer.matrix.count == FleetMethod.allCases.count * Role.allCases.count)
        #expect(Authorizer.matrixMarkdown().split(separator: "\n").filter { $0.hasPrefix("|") }.count == 2 + FleetMethod.allCases.count)
    }

    @Test func aRetiredMethodIsUnimplementedOverBothTransports() throws {
        for retired in FleetMethod.retired {
            #expect(throws: FleetError.self) { try FleetGRPCService.call(method: retired.grpcPath, message: []) }
            let path = retired.rest.path.replacingOccurrences(of: "{name=providers/*/vehicles/*}", with: "providers/p1/vehicles/v1")
                .replacingOccurrences(of: "{parent=providers/*}", with: "providers/p1")
            let error = #expect(throws: FleetError.self) { try RESTMapping.call(verb: retired.rest.verb, path: path, query: [], body: []) }
            #expect(error?.code == .unimplemented && error?.message.contains(retired.name) == true, "\(String(describing: error))")
        }
    }
}
