/// Builds the proto3 JSON object of a message, for its `toJSON()`: set fields only, in the order written.
///
/// ```swift
/// var writer = ProtoJSONWriter()
/// writer.write("name", name)              // skipped when nil
/// writer.write("waypoints", waypoints)    // skipped when empty
/// return writer.json
/// ```
public struct ProtoJSONWriter {
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
