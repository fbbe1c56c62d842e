import FleetErrors

/// Reads the protobuf binary wire format, one field at a time, for a generated message's decoder.
///
/// It never traps, whatever the bytes: every fault (a truncated varint or value, a varint longer than
/// 10 bytes, a length past the end, a field number 0, wire types 6 and 7, a known field sent with the
/// wrong wire type, invalid UTF-8 in a string, nesting deeper than ``maximumDepth``) throws an
/// INVALID_ARGUMENT `FleetError` (``ProtoBinaryError``) naming the field's JSON path. Unknown fields are
/// skipped, as protobuf requires, groups (wire types 3 and 4) included; an unknown enum number is kept
/// (`TripStatus(number: 42)`), as the JSON decoder keeps one. A singular field sent twice takes the last
/// value; a nested message sent twice is merged; repeated scalars are accepted packed and unpacked.
///
/// ```swift
/// while let field = try reader.nextField() {
///     switch field.number {
///     case 1: name = try reader.readString(field, "name")
///     case 5: try reader.readMessage(field, "lastLocation", into: &lastLocation)
///     default: try reader.skip(field)
///     }
/// }
/// ```
public struct ProtoBinaryReader: Sendable {
    /// How deep messages (and skipped groups) may nest: protobuf's own default limit. Fleet Engine's
    /// messages nest at most 6 deep; the limit stops a crafted payload from exhausting the stack.
    public static let maximumDepth = 100

    private let bytes: [UInt8]
    private var position: Int
    private let end: Int
    /// The JSON path of the message being read ("" for the payload itself).
    public let path: String
    /// The full proto name of the message being read.
    public let messageName: String
    /// How many messages enclose this one.
    public let depth: Int

    /// A reader of a whole payload holding one `messageName` message, which sits at `path` in the request.
    public init(_ bytes: [UInt8], path: String = "", messageName: String) {
        self.init(bytes, range: 0..<bytes.count, path: path, messageName: messageName, depth: 0)
    }

    private init(_ bytes: [UInt8], range: Range<Int>, path: String, messageName: String, depth: Int) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
        self.path = path
        self.messageName = messageName
        self.depth = depth
    }

    /// Whether every byte of the message has been read.
    public var isAtEnd: Bool { position >= end }

    // MARK: Keys and skipping

    /// The next field's key, or nil at the end of the message.
    public mutating func nextField() throws -> ProtoFieldKey? {
        guard position < end else { return nil }
        let key = try readKey(at: "")
        if key.wireType == .endGroup {
            throw error(at: "", problem: "an end-group marker (field \(key.number)) outside any group", offset: key.offset)
        }
        return key
    }

    /// Skips a field this message does not know, whatever its wire type.
    public mutating func skip(_ field: ProtoFieldKey) throws {
        try skipValue(field, depth: depth)
    }

    private mutating func readKey(at name: String) throws -> ProtoFieldKey {
        let offset = position
        let key = try readVarint(at: name, protoType: messageName, what: "field key")
        let number = key >> 3
        guard number >= 1, number <= 536_870_911 else {
            throw error(at: name, problem: "field number \(number) in a field key (valid: 1 to 536870911)", offset: offset)
        }
        guard let wireType = ProtoWireType(rawValue: UInt8(key & 7)) else {
            throw error(at: name, problem: "wire type \(key & 7) of field \(number) is not a protobuf wire type", offset: offset)
        }
        return ProtoFieldKey(number: Int(number), wireType: wireType, offset: offset)
    }

    private mutating func skipValue(_ field: ProtoFieldKey, depth: Int) throws {
        let name = "#\(field.number)"
        switch field.wireType {
        case .varint:
            _ = try readVarint(at: name, protoType: "unknown field", what: "varint")
        case .fixed64:
            try advance(by: 8, at: name, protoType: "unknown field")
        case .fixed32:
            try advance(by: 4, at: name, protoType: "unknown field")
        case .lengthDelimited:
            _ = try readLength(at: name, protoType: "unknown field")
        case .startGroup:
            guard depth < Self.maximumDepth else {
                throw error(at: name, problem: "groups nest deeper than \(Self.maximumDepth)", offset: field.offset)
            }
            while true {
                guard position < end else {
                    throw error(at: name, problem: "group \(field.number) has no end-group marker", offset: position)
                }
                let inner = try readKey(at: name)
                if inner.wireType == .endGroup {
                    guard inner.number == field.number else {
                        throw error(at: name, problem: "group \(field.number) ended by the end-group marker of field \(inner.number)", offset: inner.offset)
                    }
                    return
                }
                try skipValue(inner, depth: depth + 1)
            }
        case .endGroup:
            throw error(at: name, problem: "an end-group marker outside any group", offset: field.offset)
        }
    }

    // MARK: Wire primitives

    private mutating func readVarint(at name: String, protoType: String, what: String = "varint") throws -> UInt64 {
        let start = position
        var result: UInt64 = 0
        for index in 0..<10 {
            guard position < end else {
                throw error(at: name, protoType: protoType, problem: "truncated \(what)", offset: start)
            }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte < 0x80 { return result }
        }
        throw error(at: name, protoType: protoType, problem: "\(what) longer than 10 bytes", offset: start)
    }

    private mutating func advance(by count: Int, at name: String, protoType: String) throws {
        guard end - position >= count else {
            throw error(at: name, protoType: protoType, problem: "truncated value: \(count) bytes needed, \(end - position) left", offset: position)
        }
        position += count
    }

    private mutating func readFixed32Bits(at name: String, protoType: String) throws -> UInt32 {
        let start = position
        try advance(by: 4, at: name, protoType: protoType)
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[start + index]) << UInt32(8 * index) }
        return value
    }

    private mutating func readFixed64Bits(at name: String, protoType: String) throws -> UInt64 {
        let start = position
        try advance(by: 8, at: name, protoType: protoType)
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[start + index]) << UInt64(8 * index) }
        return value
    }

    /// A length prefix and the range of the bytes it announces, which are skipped.
    private mutating func readLength(at name: String, protoType: String) throws -> Range<Int> {
        let offset = position
        let length = try readVarint(at: name, protoType: protoType, what: "length")
        guard length <= UInt64(end - position) else {
            throw error(at: name, protoType: protoType, problem: "length \(length) runs past the end of the message (\(end - position) bytes left)", offset: offset)
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    private func expect(_ field: ProtoFieldKey, _ wireType: ProtoWireType, at name: String, protoType: String) throws {
        guard field.wireType == wireType else {
            throw error(at: name, protoType: protoType, problem: "wire type \(field.wireType), expected \(wireType)", offset: field.offset)
        }
    }

    // MARK: Scalars

    private mutating func varint(_ field: ProtoFieldKey, _ name: String, _ protoType: String) throws -> UInt64 {
        try expect(field, .varint, at: name, protoType: protoType)
        return try readVarint(at: name, protoType: protoType)
    }

    /// int32: the low 32 bits of the varint, as protobuf reads it.
    public mutating func readInt32(_ field: ProtoFieldKey, _ name: String) throws -> Int32 {
        Int32(truncatingIfNeeded: try varint(field, name, "TYPE_INT32"))
    }

    /// int64.
    public mutating func readInt64(_ field: ProtoFieldKey, _ name: String) throws -> Int64 {
        Int64(bitPattern: try varint(field, name, "TYPE_INT64"))
    }

    /// uint32.
    public mutating func readUInt32(_ field: ProtoFieldKey, _ name: String) throws -> UInt32 {
        UInt32(truncatingIfNeeded: try varint(field, name, "TYPE_UINT32"))
    }

    /// uint64.
    public mutating func readUInt64(_ field: ProtoFieldKey, _ name: String) throws -> UInt64 {
        try varint(field, name, "TYPE_UINT64")
    }

    /// sint32 (ZigZag).
    public mutating func readSInt32(_ field: ProtoFieldKey, _ name: String) throws -> Int32 {
        Self.unZigZag32(try varint(field, name, "TYPE_SINT32"))
    }

    /// sint64 (ZigZag).
    public mutating func readSInt64(_ field: ProtoFieldKey, _ name: String) throws -> Int64 {
        Self.unZigZag64(try varint(field, name, "TYPE_SINT64"))
    }

    /// bool: any non-zero varint is true.
    public mutating func readBool(_ field: ProtoFieldKey, _ name: String) throws -> Bool {
        try varint(field, name, "TYPE_BOOL") != 0
    }

    /// fixed32.
    public mutating func readFixed32(_ field: ProtoFieldKey, _ name: String) throws -> UInt32 {
        try expect(field, .fixed32, at: name, protoType: "TYPE_FIXED32")
        return try readFixed32Bits(at: name, protoType: "TYPE_FIXED32")
    }

    /// fixed64.
    public mutating func readFixed64(_ field: ProtoFieldKey, _ name: String) throws -> UInt64 {
        try expect(field, .fixed64, at: name, protoType: "TYPE_FIXED64")
        return try readFixed64Bits(at: name, protoType: "TYPE_FIXED64")
    }

    /// sfixed32.
    public mutating func readSFixed32(_ field: ProtoFieldKey, _ name: String) throws -> Int32 {
        try expect(field, .fixed32, at: name, protoType: "TYPE_SFIXED32")
        return Int32(bitPattern: try readFixed32Bits(at: name, protoType: "TYPE_SFIXED32"))
    }

    /// sfixed64.
    public mutating func readSFixed64(_ field: ProtoFieldKey, _ name: String) throws -> Int64 {
        try expect(field, .fixed64, at: name, protoType: "TYPE_SFIXED64")
        return Int64(bitPattern: try readFixed64Bits(at: name, protoType: "TYPE_SFIXED64"))
    }

    /// float.
    public mutating func readFloat(_ field: ProtoFieldKey, _ name: String) throws -> Float {
        try expect(field, .fixed32, at: name, protoType: "TYPE_FLOAT")
        return Float(bitPattern: try readFixed32Bits(at: name, protoType: "TYPE_FLOAT"))
    }

    /// double.
    public mutating func readDouble(_ field: ProtoFieldKey, _ name: String) throws -> Double {
        try expect(field, .fixed64, at: name, protoType: "TYPE_DOUBLE")
        return Double(bitPattern: try readFixed64Bits(at: name, protoType: "TYPE_DOUBLE"))
    }

    /// string: must be valid UTF-8, as proto3 requires.
    public mutating func readString(_ field: ProtoFieldKey, _ name: String) throws -> String {
        try expect(field, .lengthDelimited, at: name, protoType: "TYPE_STRING")
        let range = try readLength(at: name, protoType: "TYPE_STRING")
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw error(at: name, protoType: "TYPE_STRING", problem: "invalid UTF-8 in a string", offset: range.lowerBound)
        }
        return text
    }

    /// bytes.
    public mutating func readBytes(_ field: ProtoFieldKey, _ name: String) throws -> [UInt8] {
        try expect(field, .lengthDelimited, at: name, protoType: "TYPE_BYTES")
        return Array(bytes[try readLength(at: name, protoType: "TYPE_BYTES")])
    }

    /// An enum by number; numbers this build does not know are kept (`Value(number:)`).
    public mutating func readEnum<Value: ProtoEnum>(_ field: ProtoFieldKey, _ name: String) throws -> Value {
        Value(number: Int32(truncatingIfNeeded: try varint(field, name, "TYPE_ENUM \(Value.protoEnumName)")))
    }

    static func unZigZag32(_ raw: UInt64) -> Int32 {
        let value = UInt32(truncatingIfNeeded: raw)
        return Int32(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    static func unZigZag64(_ raw: UInt64) -> Int64 {
        Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    // MARK: Repeated

    /// repeated string: one element per field.
    public mutating func readRepeatedString(_ field: ProtoFieldKey, _ name: String, into values: inout [String]) throws {
        values.append(try readString(field, "\(name)[\(values.count)]"))
    }

    /// repeated bytes: one element per field.
    public mutating func readRepeatedBytes(_ field: ProtoFieldKey, _ name: String, into values: inout [[UInt8]]) throws {
        values.append(try readBytes(field, "\(name)[\(values.count)]"))
    }

    /// A repeated scalar sent packed (one length-delimited field) or not (one field per element).
    private mutating func readRepeated<Element>(
        _ field: ProtoFieldKey, _ name: String, protoType: String, elementWireType: ProtoWireType,
        into values: inout [Element], _ element: (inout ProtoBinaryReader, String) throws -> Element
    ) throws {
        if field.wireType == .lengthDelimited {
            let range = try readLength(at: name, protoType: protoType)
            var packed = ProtoBinaryReader(bytes, range: range, path: path, messageName: messageName, depth: depth)
            while !packed.isAtEnd {
                values.append(try element(&packed, "\(name)[\(values.count)]"))
            }
        } else {
            try expect(field, elementWireType, at: name, protoType: protoType)
            values.append(try element(&self, "\(name)[\(values.count)]"))
        }
    }

    /// Repeated int32, packed or not.
    public mutating func readRepeatedInt32(_ field: ProtoFieldKey, _ name: String, into values: inout [Int32]) throws {
        try readRepeated(field, name, protoType: "TYPE_INT32", elementWireType: .varint, into: &values) {
            Int32(truncatingIfNeeded: try $0.readVarint(at: $1, protoType: "TYPE_INT32"))
        }
    }

    /// Repeated int64, packed or not.
    public mutating func readRepeatedInt64(_ field: ProtoFieldKey, _ name: String, into values: inout [Int64]) throws {
        try readRepeated(field, name, protoType: "TYPE_INT64", elementWireType: .varint, into: &values) {
            Int64(bitPattern: try $0.readVarint(at: $1, protoType: "TYPE_INT64"))
        }
    }

    /// Repeated uint32, packed or not.
    public mutating func readRepeatedUInt32(_ field: ProtoFieldKey, _ name: String, into values: inout [UInt32]) throws {
        try readRepeated(field, name, protoType: "TYPE_UINT32", elementWireType: .varint, into: &values) {
            UInt32(truncatingIfNeeded: try $0.readVarint(at: $1, protoType: "TYPE_UINT32"))
        }
    }

    /// Repeated uint64, packed or not.
    public mutating func readRepeatedUInt64(_ field: ProtoFieldKey, _ name: String, into values: inout [UInt64]) throws {
        try readRepeated(field, name, protoType: "TYPE_UINT64", elementWireType: .varint, into: &values) {
            try $0.readVarint(at: $1, protoType: "TYPE_UINT64")
        }
    }

    /// Repeated sint32, packed or not.
    public mutating func readRepeatedSInt32(_ field: ProtoFieldKey, _ name: String, into values: inout [Int32]) throws {
        try readRepeated(field, name, protoType: "TYPE_SINT32", elementWireType: .varint, into: &values) {
            Self.unZigZag32(try $0.readVarint(at: $1, protoType: "TYPE_SINT32"))
        }
    }

    /// Repeated sint64, packed or not.
    public mutating func readRepeatedSInt64(_ field: ProtoFieldKey, _ name: String, into values: inout [Int64]) throws {
        try readRepeated(field, name, protoType: "TYPE_SINT64", elementWireType: .varint, into: &values) {
            Self.unZigZag64(try $0.readVarint(at: $1, protoType: "TYPE_SINT64"))
        }
    }

    /// Repeated bool, packed or not.
    public mutating func readRepeatedBool(_ field: ProtoFieldKey, _ name: String, into values: inout [Bool]) throws {
        try readRepeated(field, name, protoType: "TYPE_BOOL", elementWireType: .varint, into: &values) {
            try $0.readVarint(at: $1, protoType: "TYPE_BOOL") != 0
        }
    }

    /// Repeated fixed32, packed or not.
    public mutating func readRepeatedFixed32(_ field: ProtoFieldKey, _ name: String, into values: inout [UInt32]) throws {
        try readRepeated(field, name, protoType: "TYPE_FIXED32", elementWireType: .fixed32, into: &values) {
            try $0.readFixed32Bits(at: $1, protoType: "TYPE_FIXED32")
        }
    }

    /// Repeated fixed64, packed or not.
    public mutating func readRepeatedFixed64(_ field: ProtoFieldKey, _ name: String, into values: inout [UInt64]) throws {
        try readRepeated(field, name, protoType: "TYPE_FIXED64", elementWireType: .fixed64, into: &values) {
            try $0.readFixed64Bits(at: $1, protoType: "TYPE_FIXED64")
        }
    }

    /// Repeated sfixed32, packed or not.
    public mutating func readRepeatedSFixed32(_ field: ProtoFieldKey, _ name: String, into values: inout [Int32]) throws {
        try readRepeated(field, name, protoType: "TYPE_SFIXED32", elementWireType: .fixed32, into: &values) {
            Int32(bitPattern: try $0.readFixed32Bits(at: $1, protoType: "TYPE_SFIXED32"))
        }
    }

    /// Repeated sfixed64, packed or not.
    public mutating func readRepeatedSFixed64(_ field: ProtoFieldKey, _ name: String, into values: inout [Int64]) throws {
        try readRepeated(field, name, protoType: "TYPE_SFIXED64", elementWireType: .fixed64, into: &values) {
            Int64(bitPattern: try $0.readFixed64Bits(at: $1, protoType: "TYPE_SFIXED64"))
        }
    }

    /// Repeated float, packed or not.
    public mutating func readRepeatedFloat(_ field: ProtoFieldKey, _ name: String, into values: inout [Float]) throws {
        try readRepeated(field, name, protoType: "TYPE_FLOAT", elementWireType: .fixed32, into: &values) {
            Float(bitPattern: try $0.readFixed32Bits(at: $1, protoType: "TYPE_FLOAT"))
        }
    }

    /// Repeated double, packed or not.
    public mutating func readRepeatedDouble(_ field: ProtoFieldKey, _ name: String, into values: inout [Double]) throws {
        try readRepeated(field, name, protoType: "TYPE_DOUBLE", elementWireType: .fixed64, into: &values) {
            Double(bitPattern: try $0.readFixed64Bits(at: $1, protoType: "TYPE_DOUBLE"))
        }
    }

    /// Repeated enum, packed or not; unknown numbers are kept.
    public mutating func readRepeatedEnum<Value: ProtoEnum>(_ field: ProtoFieldKey, _ name: String, into values: inout [Value]) throws {
        let protoType = "TYPE_ENUM \(Value.protoEnumName)"
        try readRepeated(field, name, protoType: protoType, elementWireType: .varint, into: &values) {
            Value(number: Int32(truncatingIfNeeded: try $0.readVarint(at: $1, protoType: protoType)))
        }
    }

    // MARK: Messages

    /// A reader over the payload of a nested message field, one level deeper.
    public mutating func nestedReader(_ field: ProtoFieldKey, _ name: String, messageName: String) throws -> ProtoBinaryReader {
        try expect(field, .lengthDelimited, at: name, protoType: messageName)
        let range = try readLength(at: name, protoType: messageName)
        guard depth < Self.maximumDepth else {
            throw error(at: name, protoType: messageName, problem: "messages nest deeper than \(Self.maximumDepth)", offset: field.offset)
        }
        return ProtoBinaryReader(bytes, range: range, path: join(name), messageName: messageName, depth: depth + 1)
    }

    /// A nested message; one sent again is merged into the first, as protobuf requires.
    public mutating func readMessage<Message: ProtoBinaryMessage>(_ field: ProtoFieldKey, _ name: String, into value: inout Message?) throws {
        var nested = try nestedReader(field, name, messageName: Message.protoMessageName)
        if value != nil {
            try value!.mergeProtobuf(from: &nested)
        } else {
            value = try Message(protobuf: &nested)
        }
    }

    /// One element of a repeated message.
    public mutating func readRepeatedMessage<Message: ProtoBinaryMessage>(_ field: ProtoFieldKey, _ name: String, into values: inout [Message]) throws {
        var nested = try nestedReader(field, "\(name)[\(values.count)]", messageName: Message.protoMessageName)
        values.append(try Message(protobuf: &nested))
    }

    // MARK: Errors

    /// `path.name`, or the message's own path for "".
    private func join(_ name: String) -> String {
        name.isEmpty ? path : (path.isEmpty ? name : path + "." + name)
    }

    /// An INVALID_ARGUMENT naming field `name` of this message (or the message itself for "").
    public func error(at name: String, protoType: String? = nil, problem: String, offset: Int) -> FleetError {
        ProtoBinaryError.malformed(at: join(name), protoType: protoType ?? messageName, problem: problem, offset: offset)
    }
}
