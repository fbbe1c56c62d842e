/// A proto3 message with its REST (proto3 JSON) form and its binary (gRPC) form (`ProtoBinaryMessage`):
/// the models of Fleet Engine v1.
///
/// Conventions of every message: singular fields are optionals (nil = not set, left out of JSON),
/// repeated fields are arrays (empty = not set), property names are the JSON (lowerCamelCase) names.
/// Decoding accepts each field by its JSON name or its proto (snake_case) name; unknown fields are
/// INVALID_ARGUMENT unless `DecodingOptions.ignoreUnknownFields`.
public protocol ProtoMessage: ProtoJSONValue, ProtoBinaryMessage {
    /// The message's full proto name (`maps.fleetengine.v1.Vehicle`).
    static var protoMessageName: String { get }

    /// The message's top-level fields, typed (generated as a nested `FieldPath` enum).
    associatedtype FieldPath: ProtoFieldPath

    /// The JSON names of the message's top-level fields (what an update mask's first segment may name):
    /// the raw values of `FieldPath`.
    static var fieldPaths: Set<String> { get }

    /// The first unacceptable value among the fields (`firstUnacceptableValue(under:)`), its path
    /// relative to the message. Given by default; a requirement so that the walk is reached through
    /// each message's conformance, where it is specialised for the message.
    func unacceptableValueInFields() -> UnacceptableValue?

    /// Decodes from proto3 JSON; `path` is where the message sits in the request ("" for the body itself),
    /// used to name fields in errors.
    init(json: JSON, path: String, options: DecodingOptions) throws

    /// The proto3 JSON form: set fields only, camelCase names.
    func toJSON() -> JSON

    /// Writes the set fields, in order, to `writer`: a JSON tree or JSON text.
    func writeFields<Writer: ProtoFieldWriter>(to writer: inout Writer)
}

extension ProtoMessage {
    /// `ProtoJSONValue` conformance: the same as `init(json:path:options:)`.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        try self.init(json: json, path: path, options: options)
    }

    /// `ProtoJSONValue` conformance: the same as `toJSON()`.
    public var protoJSON: JSON { toJSON() }

    /// The proto3 JSON object, as a tree.
    public func toJSON() -> JSON {
        var writer = ProtoJSONWriter()
        writeFields(to: &writer)
        return writer.json
    }

    /// `ProtoJSONValue` conformance: the fields written as text, with no tree in between.
    public func writeJSONText(to writer: inout ProtoJSONTextWriter) {
        writer.writeMessage(self)
    }

    /// Decodes a JSON value with the given path (default: the top level) and options (default: strict).
    public init(json: JSON, path: String = "", options: DecodingOptions = DecodingOptions()) throws {
        try self.init(json: json, path: path, options: options)
    }

    /// Parses and decodes JSON text.
    public init(jsonString: String, path: String = "", options: DecodingOptions = DecodingOptions()) throws {
        try self.init(json: try JSON.parse(jsonString), path: path, options: options)
    }

    /// Parses and decodes UTF-8 JSON bytes (an HTTP body, a file).
    public init(jsonBytes: some Sequence<UInt8>, path: String = "", options: DecodingOptions = DecodingOptions()) throws {
        try self.init(json: try JSON.parse(jsonBytes), path: path, options: options)
    }

    /// The compact JSON text, or indented for people when `pretty`.
    public func jsonString(pretty: Bool = false) -> String {
        pretty ? toJSON().prettyPrinted() : String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// The compact JSON as UTF-8 bytes, written directly (no JSON tree is built); `options` say how
    /// (enums by name, unless they ask for numbers).
    ///
    /// Kept whole and generic in this module, so that it reaches each message's writer through its
    /// conformance, where the writer is specialised for the message. Inlined into a caller in another
    /// module, it ran the writer's unspecialised generic form instead, looking up type metadata for
    /// every field (a fifth more CPU for GetTrip's answer).
    @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    public func jsonBytes(options: EncodingOptions = EncodingOptions()) -> [UInt8] {
        var writer = ProtoJSONTextWriter(options: options)
        writeJSONText(to: &writer)
        return writer.bytes
    }
}
