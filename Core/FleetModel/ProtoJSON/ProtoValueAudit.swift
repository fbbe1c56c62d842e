/// A field whose value proto3 JSON can carry but a server must not act on.
public struct UnacceptableValue: Sendable, Hashable {
    /// What is wrong with the value.
    public enum Problem: Sendable, Hashable {
        /// A `double` or `float` that is NaN or ±Infinity (proto3 JSON lets `"NaN"` and `"Infinity"` through).
        case notFinite(Double)
        /// An enum value this build does not know: an unknown number (`vehicleState: 99`) or name.
        case unknownEnumValue(name: String, protoEnum: String, known: [String])
    }

    /// The field's JSON path under the message walked (`vehicle.lastLocation.speed`, `trip.vehicleWaypoints[1].waypointType`).
    public var path: String
    /// What is wrong.
    public var problem: Problem

    /// A sentence naming the field, the value and what would have been accepted.
    public var message: String {
        switch problem {
        case .notFinite(let value):
            return "\(path) must be a finite number, got \(value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity"))"
        case .unknownEnumValue(let name, let protoEnum, let known):
            return "\(path) has no value \(name) (\(protoEnum) is one of \(known.joined(separator: ", ")))"
        }
    }
}

extension ProtoMessage {
    /// The first field, in field order and depth first, holding a value that decodes but means
    /// nothing: a non-finite `double`/`float` or an unknown enum value; nil when there is none.
    ///
    /// The walk goes through `writeFields(to:)`, which the generator writes for every field of every
    /// message, so a field added to the protos is covered without a list to keep. Decoding keeps such
    /// values (a client reading a newer server's answer must not fail); a server refuses them.
    public func firstUnacceptableValue(under path: String = "") -> UnacceptableValue? {
        var audit = ProtoValueAudit(path: path)
        writeFields(to: &audit)
        return audit.found
    }
}

/// Walks a message's set fields (as a `ProtoFieldWriter`) and stops at the first unacceptable value.
struct ProtoValueAudit: ProtoFieldWriter {
    let path: String
    var found: UnacceptableValue?

    init(path: String) {
        self.path = path
    }

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ value: Value?) {
        guard found == nil, let value else { return }
        inspect(value, at: ProtoJSONError.join(path, jsonName))
    }

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ values: [Value]) {
        guard found == nil, !values.isEmpty else { return }
        let fieldPath = ProtoJSONError.join(path, jsonName)
        for (index, value) in values.enumerated() where found == nil {
            inspect(value, at: "\(fieldPath)[\(index)]")
        }
    }

    private mutating func inspect<Value: ProtoJSONValue>(_ value: Value, at path: String) {
        switch value {
        case let number as Double:
            if !number.isFinite { found = UnacceptableValue(path: path, problem: .notFinite(number)) }
        case let number as Float:
            if !number.isFinite { found = UnacceptableValue(path: path, problem: .notFinite(Double(number))) }
        case let enumValue as any ProtoEnum:
            found = Self.unknown(enumValue, at: path)
        case let message as any ProtoMessage:
            found = message.firstUnacceptableValue(under: path)
        default:
            break
        }
    }

    private static func unknown<E: ProtoEnum>(_ value: E, at path: String) -> UnacceptableValue? {
        guard !value.isKnown else { return nil }
        return UnacceptableValue(path: path, problem: .unknownEnumValue(
            name: value.name, protoEnum: E.protoEnumName, known: E.allKnown.map(\.name)))
    }
}
