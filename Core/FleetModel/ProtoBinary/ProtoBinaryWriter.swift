/// Writes the protobuf binary wire format: the bytes of a gRPC message.
///
/// Each generated message writes its set fields in field-number order with one call per field
/// (`writer.writeString(1, name)`); a nil optional or an empty array writes nothing. A set field is
/// written even when it holds its type's default (0, "", false, the enum's first value), because the
/// models tell "set to 0" from "not set" and a parser accepts both; Google's encoders leave such values
/// out, and the two readings agree. Repeated scalars and enums are packed, as proto3 requires.
///
/// An enum value this build knows only by an unknown *name* (kept from JSON) has no number and is not
/// written: the wire can only carry numbers.
public struct ProtoBinaryWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    // MARK: Wire primitives

    /// A base-128 varint, low group first: 1 byte for 0 ... 127, at most 10.
    public mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Bytes already in wire form (fields encoded elsewhere), appended as they are.
    public mutating func writeRawBytes(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// A field key: the field number and the wire type of what follows.
    public mutating func writeKey(_ field: Int, _ wireType: ProtoWireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// Four bytes, little-endian.
    public mutating func writeFixed32Bits(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Eight bytes, little-endian.
    public mutating func writeFixed64Bits(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// ZigZag for sint32: small magnitudes of either sign become small varints (-1 → 1, 1 → 2).
    public static func zigZag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value &<< 1) ^ (value >> 31))
    }

    /// ZigZag for sint64.
    public static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }

    /// A length-delimited field whose payload `body` writes in place: the length goes before it,
    /// moved only when the payload reaches 128 bytes.
    public mutating func writeLengthDelimited(_ field: Int, _ body: (inout ProtoBinaryWriter) -> Void) {
        writeKey(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        body(&self)
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
        } else {
            var prefix = ProtoBinaryWriter()
            prefix.writeVarint(UInt64(length))
            bytes.replaceSubrange(lengthAt..<(lengthAt + 1), with: prefix.bytes)
        }
    }

    /// Elements written back to back in one length-delimited field (packed repeated scalars).
    private mutating func writePacked<Element>(_ field: Int, _ values: [Element], _ element: (inout ProtoBinaryWriter, Element) -> Void) {
        guard !values.isEmpty else { return }
        writeLengthDelimited(field) { writer in
            for value in values { element(&writer, value) }
        }
    }

    // MARK: Scalars

    /// int32: negative values sign-extended to 10 bytes, as protobuf requires.
    public mutating func writeInt32(_ field: Int, _ value: Int32?) {
        guard let value else { return }
        writeKey(field, .varint)
        writeVarint(UInt64(bitPattern: Int64(value)))
    }

    /// int64.
    public mutating func writeInt64(_ field: Int, _ value: Int64?) {
        guard let value else { return }
        writeKey(field, .varint)
        writeVarint(UInt64(bitPattern: value))
    }

    /// uint32.
    public mutating func writeUInt32(_ field: Int, _ value: UInt32?) {
        guard let value else { return }
        writeKey(field, .varint)
        writeVarint(UInt64(value))
    }

    /// uint64.
    public mutating func writeUInt64(_ field: Int, _ value: UInt64?) {
        guard let value else { return }
        writeKey(field, .varint)
        writeVarint(value)
    }

    /// sint32 (ZigZag).
    public mutating func writeSInt32(_ field: Int, _ value: Int32?) {
        guard let value else { return }
        writeKey(field, .varint)
        writeVarint(UInt64(Self.zigZag(value)))
    }

    /// sint64 (ZigZag).
    public mutating func writeSInt64(_ field: Int, _ value: Int64?) {
        guard let value else { return }
        writeKey(field, .varint)
        writeVarint(Self.zigZag(value))
    }

    /// fixed32.
    public mutating func writeFixed32(_ field: Int, _ value: UInt32?) {
        guard let value else { return }
        writeKey(field, .fixed32)
        writeFixed32Bits(value)
    }

    /// fixed64.
    public mutating func writeFixed64(_ field: Int, _ value: UInt64?) {
        guard let value else { return }
        writeKey(field, .fixed64)
        writeFixed64Bits(value)
    }

    /// sfixed32.
    public mutating func writeSFixed32(_ field: Int, _ value: Int32?) {
        writeFixed32(field, value.map { UInt32(bitPattern: $0) })
    }

    /// sfixed64.
    public mutating func writeSFixed64(_ field: Int, _ value: Int64?) {
        writeFixed64(field, value.map { UInt64(bitPattern: $0) })
    }

    /// bool.
    public mutating func writeBool(_ field: Int, _ value: Bool?) {
        guard let value else { return }
        writeKey(field, .varint)
        bytes.append(value ? 1 : 0)
    }

    /// float: IEEE 754 single precision bits.
    public mutating func writeFloat(_ field: Int, _ value: Float?) {
        writeFixed32(field, value.map(\.bitPattern))
    }

    /// double: IEEE 754 double precision bits.
    public mutating func writeDouble(_ field: Int, _ value: Double?) {
        writeFixed64(field, value.map(\.bitPattern))
    }

    /// string: UTF-8 bytes.
    public mutating func writeString(_ field: Int, _ value: String?) {
        guard let value else { return }
        writeLengthDelimited(field) { $0.bytes.append(contentsOf: value.utf8) }
    }

    /// bytes.
    public mutating func writeBytes(_ field: Int, _ value: [UInt8]?) {
        guard let value else { return }
        writeLengthDelimited(field) { $0.bytes.append(contentsOf: value) }
    }

    /// An enum value by number; nothing for a value known only by an unknown name.
    public mutating func writeEnum<Value: ProtoEnum>(_ field: Int, _ value: Value?) {
        guard let number = value?.number else { return }
        writeInt32(field, number)
    }

    // MARK: Repeated scalars

    /// repeated string: one field per element.
    public mutating func writeRepeatedString(_ field: Int, _ values: [String]) {
        for value in values { writeString(field, value) }
    }

    /// repeated bytes: one field per element.
    public mutating func writeRepeatedBytes(_ field: Int, _ values: [[UInt8]]) {
        for value in values { writeBytes(field, value) }
    }

    /// Packed repeated int32.
    public mutating func writePackedInt32(_ field: Int, _ values: [Int32]) {
        writePacked(field, values) { $0.writeVarint(UInt64(bitPattern: Int64($1))) }
    }

    /// Packed repeated int64.
    public mutating func writePackedInt64(_ field: Int, _ values: [Int64]) {
        writePacked(field, values) { $0.writeVarint(UInt64(bitPattern: $1)) }
    }

    /// Packed repeated uint32.
    public mutating func writePackedUInt32(_ field: Int, _ values: [UInt32]) {
        writePacked(field, values) { $0.writeVarint(UInt64($1)) }
    }

    /// Packed repeated uint64.
    public mutating func writePackedUInt64(_ field: Int, _ values: [UInt64]) {
        writePacked(field, values) { $0.writeVarint($1) }
    }

    /// Packed repeated sint32.
    public mutating func writePackedSInt32(_ field: Int, _ values: [Int32]) {
        writePacked(field, values) { $0.writeVarint(UInt64(Self.zigZag($1))) }
    }

    /// Packed repeated sint64.
    public mutating func writePackedSInt64(_ field: Int, _ values: [Int64]) {
        writePacked(field, values) { $0.writeVarint(Self.zigZag($1)) }
    }

    /// Packed repeated fixed32.
    public mutating func writePackedFixed32(_ field: Int, _ values: [UInt32]) {
        writePacked(field, values) { $0.writeFixed32Bits($1) }
    }

    /// Packed repeated fixed64.
    public mutating func writePackedFixed64(_ field: Int, _ values: [UInt64]) {
        writePacked(field, values) { $0.writeFixed64Bits($1) }
    }

    /// Packed repeated sfixed32.
    public mutating func writePackedSFixed32(_ field: Int, _ values: [Int32]) {
        writePacked(field, values) { $0.writeFixed32Bits(UInt32(bitPattern: $1)) }
    }

    /// Packed repeated sfixed64.
    public mutating func writePackedSFixed64(_ field: Int, _ values: [Int64]) {
        writePacked(field, values) { $0.writeFixed64Bits(UInt64(bitPattern: $1)) }
    }

    /// Packed repeated bool.
    public mutating func writePackedBool(_ field: Int, _ values: [Bool]) {
        writePacked(field, values) { $0.bytes.append($1 ? 1 : 0) }
    }

    /// Packed repeated float.
    public mutating func writePackedFloat(_ field: Int, _ values: [Float]) {
        writePacked(field, values) { $0.writeFixed32Bits($1.bitPattern) }
    }

    /// Packed repeated double.
    public mutating func writePackedDouble(_ field: Int, _ values: [Double]) {
        writePacked(field, values) { $0.writeFixed64Bits($1.bitPattern) }
    }

    /// Packed repeated enum; values known only by an unknown name are left out.
    public mutating func writePackedEnum<Value: ProtoEnum>(_ field: Int, _ values: [Value]) {
        writePackedInt32(field, values.compactMap(\.number))
    }

    // MARK: Messages

    /// A nested message, length-delimited.
    public mutating func writeMessage<Message: ProtoBinaryMessage>(_ field: Int, _ value: Message?) {
        guard let value else { return }
        writeLengthDelimited(field) { value.writeProtobuf(to: &$0) }
    }

    /// A repeated message: one field per element.
    public mutating func writeRepeatedMessage<Message: ProtoBinaryMessage>(_ field: Int, _ values: [Message]) {
        for value in values { writeMessage(field, value) }
    }
}
