import FleetErrors

/// The INVALID_ARGUMENT errors of proto3 JSON decoding, worded like Google's ("Invalid JSON payload received. …").
///
/// Every error names the field by its full JSON path (`vehicle.lastLocation.location.latitude`,
/// `trip.vehicleWaypoints[1].location`) in the message and in `FleetError.field`.
public enum ProtoJSONError {
    /// Google's prefix for decoding errors.
    public static let prefix = "Invalid JSON payload received."

    /// A value of the wrong type or out of range for the field at `path`.
    ///
    /// - Parameters:
    ///   - protoType: the proto type, as Google names it (`TYPE_INT32`, `TYPE_ENUM`, `maps.fleetengine.v1.Vehicle`).
    ///   - expected: what would have been accepted, e.g. "a 32-bit integer (number or numeric string)".
    public static func invalidValue(at path: String, protoType: String, got value: JSON, expected: String) -> FleetError {
        let place = path.isEmpty ? "the top level" : "'\(path)'"
        return FleetError(
            code: .invalidArgument,
            message: "\(prefix) Invalid value at \(place) (\(protoType)), \(excerpt(of: value)): expected \(expected).",
            field: path.isEmpty ? nil : path,
            cause: ErrorCause.invalidField.id)
    }

    /// A member that names no field of the message at `path`.
    public static func unknownField(_ name: String, at path: String) -> FleetError {
        let place = path.isEmpty ? "" : " at '\(path)'"
        return FleetError(
            code: .invalidArgument,
            message: "\(prefix) Unknown name \"\(name)\"\(place): Cannot find field.",
            field: path.isEmpty ? nil : path,
            cause: ErrorCause.invalidField.id)
    }

    /// A field given twice, once by its JSON name and once by its proto name.
    public static func duplicateField(jsonName: String, protoName: String, at path: String) -> FleetError {
        let place = path.isEmpty ? "" : " at '\(path)'"
        return FleetError(
            code: .invalidArgument,
            message: "\(prefix) Field \"\(jsonName)\" is given twice\(place), as \"\(jsonName)\" and as \"\(protoName)\".",
            field: join(path, jsonName),
            cause: ErrorCause.invalidField.id)
    }

    /// Several members of one oneof set at once.
    public static func multipleOneofMembers(_ oneof: String, members: [String], at path: String) -> FleetError {
        let place = path.isEmpty ? "" : " at '\(path)'"
        return FleetError(
            code: .invalidArgument,
            message: "\(prefix) Multiple values for oneof \"\(oneof)\"\(place): \(members.map { "\"\($0)\"" }.joined(separator: ", ")) are mutually exclusive.",
            field: join(path, members.last ?? oneof),
            cause: ErrorCause.invalidField.id)
    }

    /// `parent.child`, or `child` at the top level.
    public static func join(_ parent: String, _ child: String) -> String {
        parent.isEmpty ? child : parent + "." + child
    }

    /// A short rendering of a value for messages: its compact JSON, cut at 60 characters.
    static func excerpt(of value: JSON) -> String {
        let text = value.serialized()
        guard text.count > 60 else { return text }
        return String(text.prefix(57)) + "..."
    }
}
