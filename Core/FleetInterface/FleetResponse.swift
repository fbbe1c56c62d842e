import FleetErrors
import FleetModel

/// What a unary call answers: a message, or nothing (`google.protobuf.Empty`).
public enum FleetResponse: Sendable {
    case message(any ProtoMessage)
    case empty

    /// The proto3 JSON text (REST's body): `{}` for nothing; `options` say how enums are written.
    public func jsonBytes(options: EncodingOptions = EncodingOptions()) -> [UInt8] {
        switch self {
        case .message(let message): message.jsonBytes(options: options)
        case .empty: Array("{}".utf8)
        }
    }

    /// The binary protobuf (gRPC's message): no bytes for nothing.
    public func protobufBytes() -> [UInt8] {
        switch self {
        case .message(let message): message.protobufBytes()
        case .empty: []
        }
    }

    /// The message as the type the method answers with.
    ///
    /// - Throws: INTERNAL when the answer is of another type (an implementation answering the wrong call).
    public func message<Message: ProtoMessage>(as type: Message.Type) throws -> Message {
        guard case .message(let message) = self, let typed = message as? Message else {
            throw FleetError(.internalFault, detail: "the answer is not a \(Message.protoMessageName)")
        }
        return typed
    }
}
