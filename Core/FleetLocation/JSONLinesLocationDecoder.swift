import FleetGeo
import FleetModel

/// Decodes JSON Lines: one JSON object per line, one location each. Two shapes are read:
///
/// - flat: `{"lat": 52.1, "lng": 5.1, "time": "2024-05-01T12:00:00Z", "speed": 8.3, "heading": 90}`
///   (`latitude`/`longitude`/`lon` also; `time`, `timestamp` or `updateTime` as RFC 3339 or epoch
///   seconds/milliseconds; `speed` in m/s or `speedKmh`; `heading`, `course` or `bearing`;
///   `altitude` or `alt`; `accuracy`, `latlngAccuracy` or `horizontalAccuracy`);
/// - Fleet Engine's `VehicleLocation`: `{"location": {"latitude": …, "longitude": …}, "heading": …,
///   "speed": …, "updateTime": …, "locationSensor": "GPS"}`.
///
/// A line that is not an object, lacks a position or holds a value of the wrong type is bad and skipped.
public struct JSONLinesLocationDecoder: LocationLineDecoder {
    /// The counters so far.
    public private(set) var statistics = DecoderStatistics()
    private var lineNumber = 0

    /// A decoder with nothing read yet.
    public init() {}

    /// Reads one line; returns the samples it completes.
    public mutating func decode(line: String) -> [LocationSample] {
        lineNumber += 1
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty { return [] }
        statistics.lines += 1
        guard let json = try? JSON.parse(trimmed), let object = json.objectValue else {
            return bad("not a JSON object")
        }
        do throws(Problem) {
            let sample = try Self.sample(from: object)
            guard sample.isPlausible else { return bad("position or figures out of range") }
            statistics.samples += 1
            return [sample]
        } catch {
            return bad(error.message)
        }
    }

    /// The input ended: nothing is pending in this format.
    public mutating func finish() -> [LocationSample] { [] }

    struct Problem: Error {
        let message: String
    }

    static func sample(from object: JSONObject) throws(Problem) -> LocationSample {
        func number(_ keys: [String], in members: JSONObject = object) throws(Problem) -> Double? {
            for key in keys {
                guard let value = members[key], !value.isNull else { continue }
                if let number = value.doubleValue { return number }
                if let text = value.stringValue, let number = Double(text) { return number }
                throw Problem(message: "\"\(key)\" is \(value.kindDescription), not a number")
            }
            return nil
        }
        var latitude: Double?
        var longitude: Double?
        if let location = object["location"], !location.isNull {
            guard let members = location.objectValue else { throw Problem(message: "\"location\" is not an object") }
            latitude = try number(["latitude", "lat"], in: members)
            longitude = try number(["longitude", "lng", "lon"], in: members)
        } else {
            latitude = try number(["lat", "latitude"])
            longitude = try number(["lng", "lon", "longitude", "long"])
        }
        guard let latitude, let longitude else { throw Problem(message: "no latitude and longitude") }
        var time: Timestamp?
        for key in ["time", "timestamp", "updateTime", "update_time"] {
            guard let value = object[key], !value.isNull else { continue }
            if let number = value.doubleValue {
                time = TimeText.epoch(number)
            } else if let text = value.stringValue {
                time = TimeText.parse(text)
            }
            guard time != nil else { throw Problem(message: "\"\(key)\" is neither RFC 3339 nor epoch seconds") }
            break
        }
        var sensor = LocationSensor.customerSuppliedLocation
        if let name = object["locationSensor"]?.stringValue ?? object["sensor"]?.stringValue {
            sensor = LocationSensor(name: name)
        }
        let metersPerSecond = try number(["speed"])
        let kilometresPerHour = try number(["speedKmh", "speedKmph", "speed_kmh"])
        let speed = metersPerSecond ?? kilometresPerHour.map { $0 / 3.6 }
        return LocationSample(
            point: GeoPoint(latitude: latitude, longitude: longitude), time: time,
            altitude: try number(["altitude", "alt"]), speed: speed,
            heading: try number(["heading", "course", "bearing"]),
            horizontalAccuracy: try number(["accuracy", "latlngAccuracy", "horizontalAccuracy"]),
            verticalAccuracy: try number(["altitudeAccuracy", "verticalAccuracy"]),
            speedAccuracy: try number(["speedAccuracy"]),
            headingAccuracy: try number(["headingAccuracy", "bearingAccuracy"]),
            sensor: sensor)
    }

    private mutating func bad(_ problem: String) -> [LocationSample] {
        statistics.bad += 1
        statistics.lastProblem = "line \(lineNumber): \(problem)"
        return []
    }
}
