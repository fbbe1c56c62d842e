import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel

extension JournalTransport {
    /// Makes a call: a journaled method (`FleetMethod.isJournaled`) is journaled and applied, any other
    /// reads from the engine after applying what others appended.
    public func perform<Response: ProtoMessage>(_ call: FleetCall, returning: Response.Type) throws -> Response {
        try answer(call).message(as: Response.self)
    }

    /// Makes a call that answers nothing.
    public func perform(_ call: FleetCall) throws {
        _ = try answer(call)
    }

    private func answer(_ call: FleetCall) throws -> FleetResponse {
        guard call.method.isJournaled else { return try read { try call.respond(from: $0) } }
        let call = try journaled(call)
        return try mutate(call) { try call.respond(from: $0) }
    }

    /// The call as every process will read it back from the journal: the call is made with this, so
    /// the writer computes exactly what the readers will.
    ///
    /// - Throws: INVALID_ARGUMENT when the request does not survive its JSON form.
    func journaled(_ call: FleetCall) throws -> FleetCall {
        do {
            return try FleetCall(method: call.method, json: JSON.parse(call.request.jsonBytes()), path: "request")
        } catch let error as FleetError {
            throw FleetError.invalidArgument("the request cannot be written to the journal: \(error.message)", field: error.field)
        }
    }
}
