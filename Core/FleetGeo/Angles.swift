#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Angle conversions and wrapping shared by the geodesy, projection and matching code.
enum Angles {
    /// Radians in one degree.
    static let radiansPerDegree = Double.pi / 180

    /// Degrees to radians.
    @inline(__always)
    static func radians(_ degrees: Double) -> Double { degrees * radiansPerDegree }

    /// Radians to degrees.
    @inline(__always)
    static func degrees(_ radians: Double) -> Double { radians / radiansPerDegree }

    /// A longitude difference wrapped into [-180, 180), so segments across the antimeridian stay short.
    @inline(__always)
    static func wrappedLongitudeDelta(_ delta: Double) -> Double {
        if delta >= 180 { return delta - 360 }
        if delta < -180 { return delta + 360 }
        return delta
    }

    /// A longitude normalised into [-180, 180).
    static func normalizedLongitude(_ longitude: Double) -> Double {
        var value = fmod(longitude + 180, 360)
        if value < 0 { value += 360 }
        return value - 180
    }

    /// A bearing normalised into [0, 360).
    static func normalizedBearing(_ degrees: Double) -> Double {
        var value = fmod(degrees, 360)
        if value < 0 { value += 360 }
        return value >= 360 ? 0 : value
    }
}
