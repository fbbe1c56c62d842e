import Foundation
import FleetGeo

/// Places points by metres east and north of an origin (flat-Earth, exact enough over a few kilometres), so test
/// routes can be drawn and their lengths computed by hand.
struct LocalGrid {
    let origin: GeoPoint

    /// Metres per degree of latitude on FleetGeo's sphere.
    static let metersPerDegree = Geodesy.earthRadiusMeters * Double.pi / 180

    func point(east: Double, north: Double) -> GeoPoint {
        let latitude = origin.latitude + north / Self.metersPerDegree
        let longitude = origin.longitude
            + east / (Self.metersPerDegree * cos(origin.latitude * Double.pi / 180))
        return GeoPoint(latitude: latitude, longitude: longitude > 180 ? longitude - 360 : longitude)
    }

    /// A polyline through the given (east, north) corners in metres.
    func points(_ corners: [(Double, Double)]) -> [GeoPoint] {
        corners.map { point(east: $0.0, north: $0.1) }
    }

    /// A polyline through the corners with extra points every `spacing` metres along each leg.
    func densified(_ corners: [(Double, Double)], spacing: Double) -> [GeoPoint] {
        var result: [GeoPoint] = []
        for index in 0..<(corners.count - 1) {
            let (x0, y0) = corners[index]
            let (x1, y1) = corners[index + 1]
            let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
            let steps = max(1, Int((length / spacing).rounded(.up)))
            for step in 0..<steps {
                let t = Double(step) / Double(steps)
                result.append(point(east: x0 + (x1 - x0) * t, north: y0 + (y1 - y0) * t))
            }
        }
        let last = corners[corners.count - 1]
        result.append(point(east: last.0, north: last.1))
        return result
    }
}
