import FleetModel
import Testing

/// One generated message type with its sample builder, type-erased so tests can run over all of them.
struct SampleCase: Sendable, CustomTestStringConvertible {
    /// The Swift type name (`VehicleType`).
    let swiftName: String
    /// The proto name relative to the package (`Vehicle.VehicleType`), as the conformance files are named.
    let protoName: String
    /// The message's top-level JSON field names.
    let fieldPaths: Set<String>
    /// The sample of a variant, as JSON.
    let sampleJSON: @Sendable (Int) -> JSON
    /// Whether decoding the sample's JSON gives back the sample.
    let roundTrips: @Sendable (Int) throws -> Bool
    /// Decodes JSON as this message and encodes it again.
    let reencode: @Sendable (JSON, DecodingOptions) throws -> JSON
    /// The sample's JSON text as written directly (`jsonBytes()`) and through the tree.
    let bothTexts: @Sendable (Int) -> (direct: [UInt8], viaTree: [UInt8])
    /// The sample's JSON text with enums written as numbers (`jsonBytes(options:)`, `enum-encoding=int`).
    let textWithEnumNumbers: @Sendable (Int) -> [UInt8]
    /// Decodes JSON as this message and gives its first unacceptable value (`firstUnacceptableValue`).
    let audit: @Sendable (JSON) throws -> UnacceptableValue?
    /// The sample of a variant in the binary protobuf form.
    let sampleProtobuf: @Sendable (Int) -> [UInt8]
    /// Whether decoding the sample's binary form gives back the sample.
    let protobufRoundTrips: @Sendable (Int) throws -> Bool
    /// Decodes the binary form as this message: its JSON and its binary re-encoding.
    let decodeProtobuf: @Sendable ([UInt8]) throws -> (json: JSON, protobuf: [UInt8])

    var testDescription: String { swiftName }

    static func of<Message: ProtoMessage>(_ type: Message.Type, protoName: String,
                                          sample: @escaping @Sendable (Int) -> Message) -> SampleCase {
        SampleCase(
            swiftName: String(reflecting: type).replacingOccurrences(of: "FleetModel.", with: ""),
            protoName: protoName,
            fieldPaths: Message.fieldPaths,
            sampleJSON: { sample($0).toJSON() },
            roundTrips: { variant in
                let original = sample(variant)
                let viaValue = try Message(json: original.toJSON())
                let viaText = try Message(jsonString: original.jsonString())
                let viaPrettyBytes = try Message(jsonBytes: Array(original.jsonString(pretty: true).utf8))
                return viaValue == original && viaText == original && viaPrettyBytes == original
            },
            reencode: { json, options in try Message(json: json, path: "", options: options).toJSON() },
            bothTexts: { variant in
                let message = sample(variant)
                return (message.jsonBytes(), message.toJSON().serializedBytes())
            },
            textWithEnumNumbers: { sample($0).jsonBytes(options: EncodingOptions(enumsAsNumbers: true)) },
            audit: { json in try Message(json: json).firstUnacceptableValue() },
            sampleProtobuf: { sample($0).protobufBytes() },
            protobufRoundTrips: { variant in
                let original = sample(variant)
                return try Message(protobuf: original.protobufBytes()) == original
            },
            decodeProtobuf: { bytes in
                let message = try Message(protobuf: bytes)
                return (message.toJSON(), message.protobufBytes())
            })
    }
}
