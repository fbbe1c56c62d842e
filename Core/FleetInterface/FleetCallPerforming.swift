import FleetModel

/// A `FleetAPI` that makes every call one way, given the call as a value: a client over the network
/// (one REST exchange per call), a journal (journaled writes, reads from its engine). It writes the two
/// `perform` functions; every blocking call of `FleetAPI` is generated over them, so a method added to
/// the table needs nothing more here.
public protocol FleetCallPerforming: BlockingFleetAPI {
    /// Makes `call` and returns its answer, a message of type `returning`.
    func perform<Response: ProtoMessage>(_ call: FleetCall, returning: Response.Type) throws -> Response
    /// Makes `call`, whose answer is `google.protobuf.Empty`.
    func perform(_ call: FleetCall) throws
}
