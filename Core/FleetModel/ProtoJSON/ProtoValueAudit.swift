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
    ///
    /// Kept whole and generic in this module (as `jsonBytes()`): it reaches the walk through the
    /// message's conformance, specialised for the message. Run generically, every field of the walk
    /// looked up type metadata: 8% of an UpdateVehicle's CPU.
    @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    public func firstUnacceptableValue(under path: String = "") -> UnacceptableValue? {
        guard var found = unacceptableValueInFields() else { return nil }
        if !path.isEmpty { found.path = ProtoValueAudit.join(path, found.path) }
        return found
    }

    public func unacceptableValueInFields() -> UnacceptableValue? {
        var audit = ProtoValueAudit(path: "")
        writeFields(to: &audit)
        return audit.found
    }
}

/// Walks a message's set fields (as a `ProtoFieldWriter`) and stops at the first unacceptable value.
///
/// Every request passes here, so the walk costs little when all is well: a field's path is written
/// only once a bad value is found (nested messages are walked from an empty path and prefixed on
/// the way out), and strings, integers and booleans, which can never be unacceptable, are passed
/// over without the casts that look for numbers, enums and messages.
struct ProtoValueAudit: ProtoFieldWriter {
    let path: String
    var found: UnacceptableValue?

    init(path: String) {
        self.path = path
    }

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ value: Value?) {
        guard found == nil, let value, Self.mayBeUnacceptable(Value.self) else { return }
        if let bad = Self.inspect(value) {
            found = UnacceptableValue(path: Self.join(ProtoJSONError.join(path, jsonName), bad.path), problem: bad.problem)
        }
    }

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ values: [Value]) {
        guard found == nil, !values.isEmpty, Self.mayBeUnacceptable(Value.self) else { return }
        for (index, value) in values.enumerated() {
            if let bad = Self.inspect(value) {
                found = UnacceptableValue(path: Self.join("\(ProtoJSONError.join(path, jsonName))[\(index)]", bad.path),
                                          problem: bad.problem)
                return
            }
        }
    }

    /// False for the types that hold no number, enum or message.
    private static func mayBeUnacceptable<Value>(_ type: Value.Type) -> Bool {
        !(type == String.self || type == Int64.self || type == Int32.self || type == UInt64.self
          || type == UInt32.self || type == Bool.self)
    }

    /// The bad value in `value`, with its path below it ("" for `value` itself).
    private static func inspect<Value: ProtoJSONValue>(_ value: Value) -> UnacceptableValue? {
        switch value {
        case let number as Double:
            return number.isFinite ? nil : UnacceptableValue(path: "", problem: .notFinite(number))
        case let number as Float:
            return number.isFinite ? nil : UnacceptableValue(path: "", problem: .notFinite(Double(number)))
        case let enumValue as any ProtoEnum:
            return unknown(enumValue)
        case let message as any ProtoMessage:
            return message.unacceptableValueInFields()
        default:
            return nil
        }
    }

    /// A field path below `parent` ("" for `parent` itself); array indexes follow without a dot.
    static func join(_ parent: String, _ below: String) -> String {
        below.isEmpty ? parent : (below.hasPrefix("[") ? parent + below : ProtoJSONError.join(parent, below))
    }

    private static func unknown<E: ProtoEnum>(_ value: E) -> UnacceptableValue? {
        guard !value.isKnown else { return nil }
        return UnacceptableValue(path: "", problem: .unknownEnumValue(
            name: value.name, protoEnum: E.protoEnumName, known: E.allKnown.map(\.name)))
    }
}
