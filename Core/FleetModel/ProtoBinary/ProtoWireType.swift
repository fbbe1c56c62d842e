/// The six wire types of the protobuf binary format: how a field's bytes are laid out, so that a reader
/// can skip a field it does not know.
public enum ProtoWireType: UInt8, Sendable, CustomStringConvertible {
    /// int32, int64, uint32, uint64, sint32, sint64, bool, enum.
    case varint = 0
    /// fixed64, sfixed64, double.
    case fixed64 = 1
    /// string, bytes, messages, packed repeated scalars.
    case lengthDelimited = 2
    /// The start of a group (proto2's deprecated nested messages); only skipped.
    case startGroup = 3
    /// The end of a group.
    case endGroup = 4
    /// fixed32, sfixed32, float.
    case fixed32 = 5

    /// `2 (length-delimited)`, as errors name it.
    public var description: String {
        switch self {
        case .varint: "0 (varint)"
        case .fixed64: "1 (64-bit)"
        case .lengthDelimited: "2 (length-delimited)"
        case .startGroup: "3 (start group)"
        case .endGroup: "4 (end group)"
        case .fixed32: "5 (32-bit)"
        }
    }
}

/// A field's key as read from the wire: its number and how its value is laid out.
public struct ProtoFieldKey: Sendable, Hashable {
    /// The field number, 1 ... 2^29 - 1.
    public let number: Int
    /// The wire type the sender used.
    public let wireType: ProtoWireType
    /// Where the key starts in the payload (for errors).
    public let offset: Int

    /// A key.
    public init(number: Int, wireType: ProtoWireType, offset: Int) {
        self.number = number
        self.wireType = wireType
        self.offset = offset
    }
}
