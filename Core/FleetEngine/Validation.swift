import FleetErrors
import FleetGeo
import FleetModel

/// Checks of request values shared by vehicles and trips. Each failure names the field.
enum Validate {
    /// Refuses a request holding, anywhere, a NaN or infinite number or an enum value this build does
    /// not know: proto3 JSON decodes `"NaN"`, `"Infinity"` and `vehicleState: 99`, and none of them
    /// means anything to store. Every request passes here first, so every field of every message is
    /// covered (see `ProtoMessage.firstUnacceptableValue`).
    static func values(of request: some ProtoMessage) throws {
        if let bad = request.firstUnacceptableValue() {
            throw FleetError.invalidArgument(bad.message, field: bad.path)
        }
    }

    static func latLng(_ point: LatLng?, field: String) throws {
        guard let point else { throw FleetError.invalidArgument("\(field) is required", field: field) }
        let lat = point.latitude, lng = point.longitude
        guard lat.isFinite, (-90...90).contains(lat) else {
            throw FleetError.invalidArgument("\(field).latitude must be between -90 and 90, got \(lat)", field: "\(field).latitude")
        }
        guard lng.isFinite, (-180...180).contains(lng) else {
            throw FleetError.invalidArgument("\(field).longitude must be between -180 and 180, got \(lng)", field: "\(field).longitude")
        }
    }

    static func terminal(_ location: TerminalLocation?, field: String) throws {
        guard let location else { throw FleetError.invalidArgument("\(field) is required", field: field) }
        try latLng(location.point, field: "\(field).point")
    }

    /// A vehicle's, delivery vehicle's or task's attributes: at most 100, unique keys without ':',
    /// "key:value" at most 256 characters, `value` and `stringValue` identical when both are set.
    static func attributes(_ attributes: [some KeyedAttribute], field: String, limit: Int = 100) throws {
        guard attributes.count <= limit else {
            throw FleetError.invalidArgument("\(field) has \(attributes.count) attributes; at most \(limit) are allowed", field: field)
        }
        var seen = Set<String>()
        for (i, a) in attributes.enumerated() {
            let path = "\(field)[\(i)]"
            let key = a.key ?? ""
            guard !key.isEmpty else { throw FleetError.invalidArgument("\(path).key is required", field: "\(path).key") }
            guard !key.contains(":") else {
                throw FleetError.invalidArgument("\(path).key '\(key)' may not contain ':'", field: "\(path).key")
            }
            guard seen.insert(key).inserted else {
                throw FleetError.invalidArgument("\(field) has the key '\(key)' twice; each attribute must have a unique key", field: "\(path).key")
            }
            if let v = a.value, let s = a.stringValue, v != s {
                throw FleetError.invalidArgument("\(path).value and \(path).stringValue differ ('\(v)' vs '\(s)'); set one, or both identical", field: "\(path).stringValue")
            }
            let text = "\(key):\(AttributeValue(a).text)"
            guard text.count <= 256 else {
                throw FleetError.invalidArgument("\(path) is \(text.count) characters as \"key:value\"; at most 256 are allowed", field: path)
            }
        }
    }

    /// The longest route a vehicle may report: the Earth's circumference. No drive is longer, and a bound this
    /// low keeps every distance derived from a route far inside the `int32` metres of Fleet Engine's fields.
    static let maximumRouteMeters = 40_075_000.0

    /// A route segment: an encoded polyline of valid points, at most ``maximumRouteMeters`` long.
    static func routeSegment(_ encoded: String, field: String) throws {
        let points: [GeoPoint]
        do { points = try Polyline.decode(encoded) } catch {
            throw FleetError.invalidArgument("\(field) is not an encoded polyline: \(error)", field: field)
        }
        var meters = 0.0
        for i in points.indices.dropFirst() {
            meters += Geodesy.distance(points[i - 1], points[i])
            guard meters <= maximumRouteMeters else {
                throw FleetError.invalidArgument(
                    "\(field) is longer than the Earth's circumference (more than \(Int(maximumRouteMeters / 1000)) km by point \(i)); no drive is that long",
                    field: field)
            }
        }
    }

    /// A count or size that must lie in a range.
    static func range<T: BinaryInteger>(_ value: T, _ range: ClosedRange<T>, field: String) throws {
        guard range.contains(value) else {
            throw FleetError.invalidArgument("\(field) must be between \(range.lowerBound) and \(range.upperBound), got \(value)", field: field)
        }
    }
}

/// An attribute as Fleet Engine's three kinds share it (a vehicle's, a delivery vehicle's, a task's):
/// a key and one value, a string, a bool or a number.
protocol KeyedAttribute {
    var key: String? { get }
    /// The older spelling of `stringValue` (vehicles and delivery vehicles; nil for tasks).
    var value: String? { get }
    var stringValue: String? { get }
    var boolValue: Bool? { get }
    var numberValue: Double? { get }
}

extension VehicleAttribute: KeyedAttribute {}
extension DeliveryVehicleAttribute: KeyedAttribute {}
extension TaskAttribute: KeyedAttribute {
    var value: String? { nil }
}

/// An attribute's value as Fleet Engine compares it: everything as a string.
struct AttributeValue: Hashable {
    let text: String

    init(_ attribute: some KeyedAttribute) {
        if let s = attribute.stringValue ?? attribute.value {
            text = s
        } else if let b = attribute.boolValue {
            text = b ? "true" : "false"
        } else if let n = attribute.numberValue {
            text = n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        } else {
            text = ""
        }
    }
}

/// An attribute with the string value in two spellings, `value` and `stringValue` (a vehicle's and a
/// delivery vehicle's).
protocol TwiceSpelledAttribute {
    var value: String? { get set }
    var stringValue: String? { get set }
}

extension VehicleAttribute: TwiceSpelledAttribute {}
extension DeliveryVehicleAttribute: TwiceSpelledAttribute {}

extension TwiceSpelledAttribute {
    /// The attribute as responses carry it: a string value is in both `value` and `stringValue`
    /// ("Both fields are populated in responses").
    var forResponse: Self {
        var a = self
        if let s = a.stringValue ?? a.value {
            a.stringValue = s
            a.value = s
        }
        return a
    }
}
