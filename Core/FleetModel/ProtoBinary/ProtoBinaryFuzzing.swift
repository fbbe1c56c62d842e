/// An entry point for fuzzing the binary decoder: what a libFuzzer target calls with each input.
///
/// `decodeAny` decodes the bytes as every request message a gRPC server receives. Decoding must either
/// succeed or throw a `FleetError`; it must never trap. When a decode succeeds, the value's re-encoding
/// must decode again and re-encode to the same bytes; if it does not, this traps, which is what the fuzzer
/// reports as a finding.
public enum ProtoBinaryFuzzing {
    /// Every request message of VehicleService and TripService, as a gRPC server decodes them.
    public static let requestTypes: [any ProtoMessage.Type] = [
        CreateVehicleRequest.self, GetVehicleRequest.self, DeleteVehicleRequest.self, UpdateVehicleRequest.self,
        UpdateVehicleAttributesRequest.self, ListVehiclesRequest.self, SearchVehiclesRequest.self,
        CreateTripRequest.self, GetTripRequest.self, DeleteTripRequest.self, ReportBillableTripRequest.self,
        UpdateTripRequest.self, SearchTripsRequest.self,
        CreateDeliveryVehicleRequest.self, GetDeliveryVehicleRequest.self, DeleteDeliveryVehicleRequest.self,
        UpdateDeliveryVehicleRequest.self, ListDeliveryVehiclesRequest.self, CreateTaskRequest.self, BatchCreateTasksRequest.self,
        GetTaskRequest.self, DeleteTaskRequest.self, UpdateTaskRequest.self, ListTasksRequest.self, GetTaskTrackingInfoRequest.self,
    ]

    /// Decodes `bytes` as each request type; returns how many types accepted them.
    @discardableResult
    public static func decodeAny(_ bytes: [UInt8]) -> Int {
        requestTypes.reduce(0) { accepted, type in accepted + (decode(bytes, as: type) ? 1 : 0) }
    }

    private static func decode<Message: ProtoMessage>(_ bytes: [UInt8], as type: Message.Type) -> Bool {
        guard let message = try? Message(protobuf: bytes) else { return false }
        let encoded = message.protobufBytes()
        guard let again = try? Message(protobuf: encoded) else {
            preconditionFailure("\(Message.protoMessageName): the re-encoding of an accepted input does not decode")
        }
        precondition(again.protobufBytes() == encoded, "\(Message.protoMessageName): re-encoding is not stable")
        return true
    }
}
