import FleetErrors
@_exported import FleetJSON

/// The product's one JSON value (FleetJSON's), named here so that FleetModel's files, the generated
/// messages and every user of FleetModel say `JSON` without importing FleetJSON.
public typealias JSON = FleetJSON.JSON

/// An ordered JSON object (FleetJSON's).
public typealias JSONObject = FleetJSON.JSONObject

extension JSON {
    /// Parses one JSON document (RFC 8259) from UTF-8 bytes, as `init(parsing:maxDepth:)` does (strict,
    /// nesting bounded without recursion).
    /// - Throws: `FleetError` INVALID_ARGUMENT, cause `.malformedJSON`, whose message says what was
    ///   expected and where: "line L, column C (byte B)".
    public static func parse(_ bytes: some Sequence<UInt8>, maxDepth: Int = defaultMaxDepth) throws -> JSON {
        try reportingSyntax { try JSON(parsing: bytes, maxDepth: maxDepth) }
    }

    /// Parses one JSON document from a string (see `parse(_:maxDepth:)`).
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws -> JSON {
        try reportingSyntax { try JSON(parsing: text, maxDepth: maxDepth) }
    }

    /// Parses one JSON document from a buffer of UTF-8 bytes (see `parse(_:maxDepth:)`).
    public static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws -> JSON {
        try reportingSyntax { try JSON(parsing: buffer, maxDepth: maxDepth) }
    }

    private static func reportingSyntax(_ parse: () throws -> JSON) throws -> JSON {
        do {
            return try parse()
        } catch let error as JSONSyntaxError {
            throw FleetError(.malformedJSON, detail: error.description)
        }
    }
}
