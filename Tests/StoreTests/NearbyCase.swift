import FleetStore
import Testing

/// A place and radius for the nearby contract test, with the bearings at which a point 2.5 radii
/// away lies outside any sensible bounding box (near a pole the box spans every longitude, so only
/// points away from the pole are checked).
struct NearbyCase: Sendable, CustomTestStringConvertible {
    let name: String
    let center: IndexPoint
    let radius: Double
    let outsideBearings: [Double]

    static let everyBearing = Array(stride(from: 0.0, to: 360, by: 45))

    static let all: [NearbyCase] = [
        NearbyCase(name: "equator", center: IndexPoint(latitude: 0, longitude: 0), radius: 1_000, outsideBearings: everyBearing),
        NearbyCase(name: "Berlin", center: IndexPoint(latitude: 52.52, longitude: 13.405), radius: 5_000, outsideBearings: everyBearing),
        NearbyCase(name: "antimeridian east side", center: IndexPoint(latitude: -17.7, longitude: 179.995), radius: 2_000, outsideBearings: everyBearing),
        NearbyCase(name: "antimeridian west side, far north", center: IndexPoint(latitude: 65, longitude: -179.99), radius: 3_000, outsideBearings: everyBearing),
        NearbyCase(name: "high latitude", center: IndexPoint(latitude: 85, longitude: 10), radius: 50_000, outsideBearings: everyBearing),
        NearbyCase(name: "over the north pole", center: IndexPoint(latitude: 89.995, longitude: 45), radius: 2_000, outsideBearings: [135, 180, 225]),
        NearbyCase(name: "over the south pole", center: IndexPoint(latitude: -89.99, longitude: -120), radius: 5_000, outsideBearings: [315, 0, 45]),
        NearbyCase(name: "large radius", center: IndexPoint(latitude: 10, longitude: 20), radius: 500_000, outsideBearings: everyBearing),
    ]

    var testDescription: String { name }
}
