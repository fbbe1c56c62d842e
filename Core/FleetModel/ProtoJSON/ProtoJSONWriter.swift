import FleetJSON
/// Where a message writes its set fields, in order: a JSON tree (`ProtoJSONWriter`) or JSON text
/// (`ProtoJSONTextWriter`). Each generated message has one `writeFields(to:)` serving both.
public protocol ProtoFieldWriter {
    /// Writes a singular field when it is set.
    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ value: Value?)
    /// Writes a repeated field when it has elements.
    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ values: [Value])
}

/// Builds the proto3 JSON object of a message, for its `toJSON()`: set fields only, in the order written.
///
/// ```swift
/// var writer = ProtoJSONWriter()
/// writer.write("name", name)              // skipped when nil
/// writer.write("waypoints", waypoints)    // skipped when empty
/// return writer.json
/// ```
public struct ProtoJSONWriter: ProtoFieldWriter {
    /// The object built so far.
    public private(set) var object = JSONObject()

    /// An empty object.
    public init() {}

    /// Writes a singular field when it is set.
    public mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ value: Value?) {
        guard let value else { return }
        object.appendNew(key: jsonName, value: value.protoJSON)
    }

    /// Writes a repeated field when it has elements.
    public mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ values: [Value]) {
        guard !values.isEmpty else { return }
        object.appendNew(key: jsonName, value: .array(values.map(\.protoJSON)))
    }

    /// The finished object.
    public var json: JSON { .object(object) }
}

/// Writes a message's compact proto3 JSON text directly, without building the JSON tree first: the
/// same bytes as `toJSON().serializedBytes()`, for the server's responses and the stores' payloads.
public struct ProtoJSONTextWriter: ProtoFieldWriter {
    private var text = JSONTextWriter(indent: nil)
    /// Whether the object being written has no member yet.
    private var isFirstMember = true
    /// How values are written (enums by name or by number).
    public let options: EncodingOptions

    public init(options: EncodingOptions = EncodingOptions()) {
        self.options = options
    }

    /// The text written so far.
    public var bytes: [UInt8] { text.bytes }

    /// Writes a message as an object.
    public mutating func writeMessage<Message: ProtoMessage>(_ message: Message) {
        writeObject { message.writeFields(to: &$0) }
    }

    /// Writes an object whose members `body` writes with `write(_:_:)`: JSON of the program's own
    /// (records in a store), written as directly as a message. Member names must be plain ASCII.
    public mutating func writeObject(_ body: (inout ProtoJSONTextWriter) -> Void) {
        text.appendByte(UInt8(ascii: "{"))
        let outer = isFirstMember
        isFirstMember = true
        body(&self)
        isFirstMember = outer
        text.appendByte(UInt8(ascii: "}"))
    }

    /// Writes member `jsonName` with a value already written as JSON text (by this writer's kind).
    public mutating func writeJSONText(_ jsonName: String, _ json: [UInt8]) {
        writeKey(jsonName)
        _ = text.appendPlain { bytes in
            bytes += json
            return true
        }
    }

    /// The JSON text of `values` as an array (`[]` for none), to write later with `writeJSONText`:
    /// a large field that seldom changes, written once rather than with every write of its message.
    public static func arrayText<Value: ProtoJSONValue>(_ values: [Value], options: EncodingOptions = EncodingOptions()) -> [UInt8] {
        var writer = ProtoJSONTextWriter(options: options)
        writer.writeArray(values)
        return writer.bytes
    }

    /// The members `message` writes, as JSON text without the object's braces (empty when no field is
    /// set), to write later with `writeMembersText`: one text for two objects that share those members.
    ///
    /// Kept whole and generic in this module, as ``ProtoMessage/jsonBytes(options:)`` is, so that the
    /// fields are written through the message's conformance, where the writer is specialised for it.
    /// Inlined into the engine, the unspecialised writer looked up type metadata for every field
    /// (UpdateDeliveryVehicle's vehicle fields cost twice what a vehicle's whole JSON did).
    @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    public static func membersText<Message: ProtoMessage>(_ message: Message, options: EncodingOptions = EncodingOptions()) -> [UInt8] {
        var writer = ProtoJSONTextWriter(options: options)
        message.writeJSONText(to: &writer)
        // The object's text without its braces.
        return Array(writer.bytes.dropFirst().dropLast())
    }

    /// Writes members already written as text (``membersText(_:options:)``) into the object being written.
    public mutating func writeMembersText(_ members: [UInt8]) {
        guard !members.isEmpty else { return }
        if !isFirstMember { text.appendByte(UInt8(ascii: ",")) }
        isFirstMember = false
        _ = text.appendPlain { bytes in
            bytes += members
            return true
        }
    }

    /// Writes member `jsonName` as an object whose members `body` writes.
    public mutating func writeObject(_ jsonName: String, _ body: (inout ProtoJSONTextWriter) -> Void) {
        writeKey(jsonName)
        writeObject(body)
    }

    /// Writes a value given as JSON (scalars, well-known types).
    public mutating func writeValue(_ json: JSON) {
        text.write(json, depth: 0)
    }

    public mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ value: Value?) {
        guard let value else { return }
        writeKey(jsonName)
        value.writeJSONText(to: &self)
    }

    public mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ values: [Value]) {
        guard !values.isEmpty else { return }
        writeKey(jsonName)
        writeArray(values)
    }

    private mutating func writeArray<Value: ProtoJSONValue>(_ values: [Value]) {
        text.appendByte(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { text.appendByte(UInt8(ascii: ",")) }
            value.writeJSONText(to: &self)
        }
        text.appendByte(UInt8(ascii: "]"))
    }

    /// Field names are the generated messages' JSON names, plain ASCII: written without escaping.
    private mutating func writeKey(_ name: String) {
        if !isFirstMember { text.appendByte(UInt8(ascii: ",")) }
        isFirstMember = false
        text.writePlainKey(name)
    }

    /// Writes a string value that `body` appends as plain ASCII (no escaping needed), quoted. When
    /// `body` returns false (it appended nothing), writes nothing and returns false.
    mutating func writeASCIIString(_ body: (inout [UInt8]) -> Bool) -> Bool {
        text.appendPlain { bytes in
            let start = bytes.count
            bytes.append(UInt8(ascii: "\""))
            guard body(&bytes) else {
                bytes.removeSubrange(start...)
                return false
            }
            bytes.append(UInt8(ascii: "\""))
            return true
        }
    }
}
