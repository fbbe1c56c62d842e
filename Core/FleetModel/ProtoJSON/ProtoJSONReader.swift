/// Reads the fields of one proto3 JSON object, for a message's `init(json:path:options:)`.
///
/// Ask for each field once, by its JSON name and proto name, then call `finish()`, which fails on members
/// that named no field (unless unknown fields are ignored):
///
/// ```swift
/// var reader = try ProtoJSONReader(json, path: path, message: Self.protoMessageName, options: options)
/// name = try reader.field("name", proto: "name")
/// maximumCapacity = try reader.field("maximumCapacity", proto: "maximum_capacity")   // Int32?
/// waypoints = try reader.repeated("waypoints", proto: "waypoints")                   // [TripWaypoint]
/// try reader.finish()
/// ```
///
/// The value type chooses the decoding (any `ProtoJSONValue`: String, Bool, Int32, Int64, UInt64, Double,
/// Float, Timestamp, ProtoDuration, FieldMask, enums, messages). `null` means "not set" (nil / empty).
public struct ProtoJSONReader {
    /// The object being read.
    public let object: JSONObject
    /// The object's JSON path ("" at the top level).
    public let path: String
    /// The options passed down to nested messages.
    public let options: DecodingOptions
    /// How many members the fields read so far matched.
    private var matchedMembers = 0
    /// Which member positions were matched (positions below 64), to name an unknown member when `finish` fails.
    private var matchedPositions: UInt64 = 0
    /// Matched positions from 64 on, for unusually large objects.
    private var matchedHighPositions: Set<Int> = []
    /// One bit per member key, set by `signature(of:)`: a name whose bit is clear is certainly absent,
    /// so most absent fields cost no scan of the members.
    private let keySignatures: UInt64

    /// Starts reading `json`, which must be an object (of message `message`, named in the error otherwise).
    public init(_ json: JSON, path: String, message: String, options: DecodingOptions) throws {
        guard case .object(let object) = json else {
            throw ProtoJSONError.invalidValue(at: path, protoType: message, got: json, expected: "a JSON object")
        }
        self.object = object
        self.path = path
        self.options = options
        var signatures: UInt64 = 0
        for member in object.members { signatures |= Self.signature(of: member.key) }
        keySignatures = signatures
    }


    /// A bit chosen by a name's length and its first and last bytes.
    @inline(__always)
    private static func signature(of name: String) -> UInt64 {
        let utf8 = name.utf8
        let mix = utf8.count &* 31 &+ Int(utf8.first ?? 0) &+ Int(utf8.last ?? 0) &* 7
        return 1 << UInt64(mix & 63)
    }

    /// The position of the member named `name`, if any.
    @inline(__always)
    private func position(of name: String) -> Int? {
        guard keySignatures & Self.signature(of: name) != 0 else { return nil }
        return object.position(of: name)
    }

    /// The path of field `jsonName` of this object.
    public func childPath(_ jsonName: String) -> String {
        ProtoJSONError.join(path, jsonName)
    }

    /// The member for a field, by JSON name or proto name (both at once is an error).
    private mutating func member(_ jsonName: String, proto protoName: String) throws -> JSON? {
        let byJSONName = position(of: jsonName)
        let byProtoName = protoName == jsonName ? nil : position(of: protoName)
        if byJSONName != nil && byProtoName != nil {
            throw ProtoJSONError.duplicateField(jsonName: jsonName, protoName: protoName, at: path)
        }
        guard let position = byJSONName ?? byProtoName else { return nil }
        matchedMembers += 1
        if position < 64 {
            matchedPositions |= 1 << UInt64(position)
        } else {
            matchedHighPositions.insert(position)
        }
        return object[position].value
    }

    /// A singular field: nil when absent or null.
    public mutating func field<Value: ProtoJSONValue>(_ jsonName: String, proto protoName: String, as type: Value.Type = Value.self) throws -> Value? {
        guard let value = try member(jsonName, proto: protoName), !value.isNull else { return nil }
        return try Value(protoJSON: value, path: childPath(jsonName), options: options)
    }

    /// A repeated field: empty when absent or null; each element is decoded (null elements are errors).
    public mutating func repeated<Value: ProtoJSONValue>(_ jsonName: String, proto protoName: String, of type: Value.Type = Value.self) throws -> [Value] {
        guard let value = try member(jsonName, proto: protoName) else { return [] }
        let fieldPath = childPath(jsonName)
        switch value {
        case .null:
            return []
        case .array(let elements):
            var decoded: [Value] = []
            decoded.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                decoded.append(try Value(protoJSON: element, path: "\(fieldPath)[\(index)]", options: options))
            }
            return decoded
        default:
            throw ProtoJSONError.invalidValue(at: fieldPath, protoType: "repeated field", got: value, expected: "a JSON array")
        }
    }

    /// The member of a oneof that is set: nil if none, an error if several are.
    ///
    /// Pass each member's JSON name with its decoded value, e.g.
    /// `reader.oneof("vehicle_attribute_value", ("stringValue", stringValue.map(Value.stringValue)), …)`.
    public func oneof<Choice>(_ name: String, _ members: (jsonName: String, value: Choice?)...) throws -> Choice? {
        let set = members.filter { $0.value != nil }
        if set.count > 1 {
            throw ProtoJSONError.multipleOneofMembers(name, members: set.map(\.jsonName), at: path)
        }
        return set.first?.value
    }

    /// Ends reading: fails on the first member that named no field, unless unknown fields are ignored.
    public func finish() throws {
        guard matchedMembers < object.count, !options.ignoreUnknownFields else { return }
        let unmatched = object.indices.first { position in
            position < 64 ? matchedPositions & (1 << UInt64(position)) == 0 : !matchedHighPositions.contains(position)
        }
        throw ProtoJSONError.unknownField(unmatched.map { object[$0].key } ?? "?", at: path)
    }
}
