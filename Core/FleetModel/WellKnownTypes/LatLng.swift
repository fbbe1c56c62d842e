/// A latitude/longitude pair in degrees, WGS84 (`google.type.LatLng`).
///
/// Unlike the Fleet Engine messages, its two fields are plain `Double`s (proto3 scalars without presence,
/// default 0): a point always has both. Both are always written to JSON. Ranges (latitude −90…90,
/// longitude −180…180) are the engine's to validate, not the decoder's.
public struct LatLng: ProtoMessage {
    /// Degrees north, −90 … 90.
    public var latitude: Double
    /// Degrees east, −180 … 180.
    public var longitude: Double

    /// A point.
    public init(latitude: Double = 0, longitude: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The message's full proto name.
    public static let protoMessageName = "google.type.LatLng"
    /// The message's two fields.
    public enum FieldPath: String, ProtoFieldPath {
        case latitude
        case longitude
    }

    /// The JSON names of the fields.
    public static let fieldPaths: Set<String> = Set(FieldPath.allCases.map(\.rawValue))

    /// Decodes `{"latitude": …, "longitude": …}`; a missing or null coordinate is 0.
    public init(json: JSON, path: String, options: DecodingOptions) throws {
        var reader = try ProtoJSONReader(json, path: path, message: Self.protoMessageName, options: options)
        latitude = try reader.field("latitude", proto: "latitude") ?? 0
        longitude = try reader.field("longitude", proto: "longitude") ?? 0
        try reader.finish()
    }

    /// Both coordinates, always.
    public func writeFields<Writer: ProtoFieldWriter>(to writer: inout Writer) {
        writer.write("latitude", latitude)
        writer.write("longitude", longitude)
    }
}
