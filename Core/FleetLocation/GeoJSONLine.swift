import FleetErrors
import FleetGeo
import FleetModel

/// GeoJSON lines (RFC 7946): coordinates are `[longitude, latitude]` or `[longitude, latitude, altitude]`.
enum GeoJSONLine {
    static func points(_ json: JSON, source: String) throws -> [GeoPoint] {
        guard let points = try lines(in: json, source: source) else {
            throw FleetError(.malformedLocationFile, detail: "\(source): GeoJSON without a LineString or MultiLineString")
        }
        return points
    }

    private static func lines(in json: JSON, source: String) throws -> [GeoPoint]? {
        switch json["type"]?.stringValue {
        case "LineString"?:
            return try positions(json["coordinates"], source: source)
        case "MultiLineString"?:
            guard let parts = json["coordinates"]?.arrayValue else {
                throw FleetError(.malformedLocationFile, detail: "\(source): MultiLineString without coordinates")
            }
            return try parts.flatMap { try positions($0, source: source) }
        case "Feature"?:
            return try json["geometry"].flatMap { try lines(in: $0, source: source) }
        case "FeatureCollection"?:
            for feature in json["features"]?.arrayValue ?? [] {
                if let found = try lines(in: feature, source: source) { return found }
            }
            return nil
        case "GeometryCollection"?:
            for geometry in json["geometries"]?.arrayValue ?? [] {
                if let found = try lines(in: geometry, source: source) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    private static func positions(_ json: JSON?, source: String) throws -> [GeoPoint] {
        guard let array = json?.arrayValue else {
            throw FleetError(.malformedLocationFile, detail: "\(source): LineString coordinates are not an array")
        }
        return try array.enumerated().map { index, position in
            guard let pair = position.arrayValue, pair.count >= 2,
                  let longitude = pair[0].doubleValue, let latitude = pair[1].doubleValue,
                  (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw FleetError(.malformedLocationFile,
                                 detail: "\(source): coordinates[\(index)] is not [longitude, latitude] in range")
            }
            return GeoPoint(latitude: latitude, longitude: longitude)
        }
    }
}
