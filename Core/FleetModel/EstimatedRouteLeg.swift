/// One leg of a vehicle's planned route that no road covers: the server drives it as a straight-line
/// estimate (great-circle distance times the detour factor, at the vehicle category's default speed) and
/// says which leg and why. This server's extension, carried by `Vehicle.estimatedLegs` and
/// `DeliveryVehicle.estimatedLegs` in REST (JSON) answers only; Google's messages have no such field, so
/// gRPC answers leave it out (docs/http-api.md, "Estimated legs").
///
/// Output only: a request may carry it back (it decodes), and the server ignores it.
public struct EstimatedRouteLeg: ProtoMessage {
    /// The leg's end: the index in the vehicle's `waypoints` (rides) or `remainingVehicleJourneySegments`
    /// (deliveries) of the waypoint or stop the leg leads to; the first leg starts at the vehicle.
    public var leg: Int32?
    /// The router's error cause (`ROUTE_NOT_FOUND`: no road joins the leg's ends; `POINT_OFF_MAP`: no road
    /// near one of them); `error-explain CAUSE` explains it.
    public var cause: String?
    /// The router's message: which point, how far from a road, on which map.
    public var reason: String?

    /// A value with the given fields set; every field defaults to not set.
    public init(leg: Int32? = nil, cause: String? = nil, reason: String? = nil) {
        self.leg = leg
        self.cause = cause
        self.reason = reason
    }
}

extension EstimatedRouteLeg {
    /// The message's name: this server's, not Google's.
    public static let protoMessageName = "fleet.EstimatedRouteLeg"

    /// The fields by JSON name.
    public enum FieldPath: String, ProtoFieldPath {
        case leg
        case cause
        case reason
    }

    /// The JSON names of the fields.
    public static let fieldPaths: Set<String> = Set(FieldPath.allCases.map(\.rawValue))

    /// Decodes proto3 JSON; errors name fields by their path under `path`.
    public init(json: JSON, path: String, options: DecodingOptions) throws {
        var reader = try ProtoJSONReader(json, path: path, message: Self.protoMessageName, options: options)
        leg = try reader.field("leg", proto: "leg")
        cause = try reader.field("cause", proto: "cause")
        reason = try reader.field("reason", proto: "reason")
        try reader.finish()
    }

    /// Writes the set fields, in order.
    public func writeFields<Writer: ProtoFieldWriter>(to writer: inout Writer) {
        writer.write("leg", leg)
        writer.write("cause", cause)
        writer.write("reason", reason)
    }

    /// Decodes the binary form (fields 1–3 in the order above), for completeness: no gRPC answer carries it.
    public init(protobuf reader: inout ProtoBinaryReader) throws {
        self.init()
        try mergeProtobuf(from: &reader)
    }

    public mutating func mergeProtobuf(from reader: inout ProtoBinaryReader) throws {
        while let field = try reader.nextField() {
            switch field.number {
            case 1: leg = try reader.readInt32(field, "leg")
            case 2: cause = try reader.readString(field, "cause")
            case 3: reason = try reader.readString(field, "reason")
            default: try reader.skip(field)
            }
        }
    }

    public func writeProtobuf(to writer: inout ProtoBinaryWriter) {
        writer.writeInt32(1, leg)
        writer.writeString(2, cause)
        writer.writeString(3, reason)
    }
}
