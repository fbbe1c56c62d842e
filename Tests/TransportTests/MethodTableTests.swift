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
    /// A call of `method` whose path field names a resource of the method's pattern (`providers/p1/vehicles/id1`).
    static func sampleCall(_ method: FleetMethod) throws -> FleetCall {
        let path = method.http.path
        let inner = path[path.index(after: path.firstIndex(of: "{")!)..<path.firstIndex(of: "}")!].split(separator: "=")
        var wildcards = ["p1", "id1"].makeIterator()
        let name = inner[1].split(separator: "/").map { $0 == "*" ? wildcards.next()! : String($0) }.joined(separator: "/")
        var request: JSONObject = [String(inner[0]): .string(name)]
        // A body that is one field (`vehicle`) always arrives, `{}` at least.
        if !["", "*"].contains(method.http.body) { request[method.http.body] = .object([:]) }
        return try FleetCall(method: method, json: .object(request))
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
        #expect(path == "/maps.fleetengine.v1.\(method.resource == .vehicle ? "VehicleService" : "TripService")/\(method.rawValue)")
        let call = try Self.sampleCall(method)
        #expect(try FleetGRPCService.call(method: path, message: call.request.protobufBytes()) == call)
        // The request message is the one Google's descriptor names for the method.
        #expect(type(of: call.request).protoMessageName == "maps.fleetengine.v1.\(method.rawValue)Request")
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
