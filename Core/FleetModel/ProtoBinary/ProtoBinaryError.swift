import FleetErrors

/// The INVALID_ARGUMENT errors of binary protobuf decoding (cause `MALFORMED_PROTOBUF`): "The binary
/// protobuf message cannot be decoded: at 'vehicle.name' (TYPE_STRING): invalid UTF-8 (byte 14)".
///
/// Each error names the field by its JSON path (`vehicle.lastLocation.location`, `trip.vehicleWaypoints[1]`),
/// the same path the JSON decoder would give, in the message and in `FleetError.field`, and says at which
/// byte of the whole payload the fault lies, so a captured request can be inspected.
public enum ProtoBinaryError {
    /// A fault in the bytes of the field at `path` (or of the message itself when `path` is empty).
    ///
    /// - Parameters:
    ///   - protoType: the proto type as Google names it (`TYPE_STRING`, `maps.fleetengine.v1.Vehicle`).
    ///   - problem: what is wrong, e.g. "truncated varint".
    ///   - offset: the byte of the payload where the fault was found.
    public static func malformed(at path: String, protoType: String, problem: String, offset: Int) -> FleetError {
        let place = path.isEmpty ? "the top level" : "'\(path)'"
        return FleetError(
            ErrorCause.malformedProtobuf,
            detail: "at \(place) (\(protoType)): \(problem) (byte \(offset))",
            field: path.isEmpty ? nil : path)
    }
}
