/// A message with its binary protobuf form: the bytes gRPC carries.
///
/// Every generated Fleet Engine message conforms (through `ProtoMessage`), with code generated from the
/// same descriptors as its JSON: field numbers, types, oneofs. The binary and JSON forms of one value
/// say the same thing, so a server can answer either from one model.
public protocol ProtoBinaryMessage: Sendable {
    /// The message's full proto name (`maps.fleetengine.v1.Vehicle`), used in decoding errors.
    static var protoMessageName: String { get }

    /// Decodes the message that `reader` holds.
    init(protobuf reader: inout ProtoBinaryReader) throws

    /// Reads more fields into this value: a singular field replaces the value it had, a nested message
    /// merges, a repeated field appends (what protobuf does with a message sent in parts).
    mutating func mergeProtobuf(from reader: inout ProtoBinaryReader) throws

    /// Writes the set fields, in field-number order.
    func writeProtobuf(to writer: inout ProtoBinaryWriter)
}

extension ProtoBinaryMessage {
    /// Decodes a whole payload (a gRPC message); `path` is where the message sits, to name fields in errors.
    ///
    /// - Throws: INVALID_ARGUMENT (`MALFORMED_PROTOBUF`) naming the field, for any malformed input.
    public init(protobuf bytes: [UInt8], path: String = "") throws {
        var reader = ProtoBinaryReader(bytes, path: path, messageName: Self.protoMessageName)
        try self.init(protobuf: &reader)
    }

    /// The binary protobuf form.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtoBinaryWriter()
        writeProtobuf(to: &writer)
        return writer.bytes
    }
}
