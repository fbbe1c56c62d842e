import FleetCLI
import Foundation
import FleetModel

/// Parsers for the values operators type after fleet-admin's flags. Pure functions: text in,
/// model values out, or an `ArgumentProblem` saying what was expected (the option's name is added by the parser).
enum FlagValue {
    /// `52.52,13.40` (also with a space after the comma). Ranges are the engine's to check, so an
    /// out-of-range latitude is an INVALID_ARGUMENT from the engine, not a usage error.
    static func latLng(_ text: String) throws(ArgumentProblem) -> LatLng {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              latitude.isFinite, longitude.isFinite else {
            throw ArgumentProblem("is not LAT,LNG in decimal degrees (like 52.52,13.40)")
        }
        return LatLng(latitude: latitude, longitude: longitude)
    }

    /// `k=v,k2=v2` as ordered key/value pairs; a value may contain `=` but not `,`. An empty text
    /// is no pairs (`--attributes ''` clears a vehicle's attributes).
    static func keyValuePairs(_ text: String) throws(ArgumentProblem) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ArgumentProblem("has '\(item)', which is not KEY=VALUE (write k=v,k2=v2)")
            }
            let key = item[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw ArgumentProblem("has an empty key in '\(item)'") }
            pairs.append((key, String(item[item.index(after: equals)...])))
        }
        return pairs
    }

    /// Attributes from `k=v,…`, each with a string value.
    static func attributes<Attribute: KeyedAttribute>(_ text: String) throws(ArgumentProblem) -> [Attribute] {
        try keyValuePairs(text).map { Attribute.string(key: $0.key, value: $0.value) }
    }

    /// The comma-separated words of a list value, trimmed, empty ones dropped.
    static func words(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// An enum value typed in any case, with `-`, `_` or spaces (`enroute-to-pickup`,
    /// `ENROUTE_TO_PICKUP`, `Enroute to pickup`). A unique prefix of a name is enough
    /// (`journey-sharing` → `JOURNEY_SHARING_V1S`). Only `accepted` values are offered.
    static func enumValue<Value: ProtoEnum>(_ text: String, accepted: [Value]) throws(ArgumentProblem) -> Value {
        let wanted = canonicalName(text)
        if let exact = accepted.first(where: { $0.name == wanted }) { return exact }
        let byPrefix = accepted.filter { !wanted.isEmpty && $0.name.hasPrefix(wanted) }
        if byPrefix.count == 1 { return byPrefix[0] }
        throw ArgumentProblem("is not one of \(accepted.map { spelling(of: $0) }.joined(separator: ", "))")
    }

    /// Several enum values from a comma-separated list (`exclusive,shared`), at least one.
    static func enumValues<Value: ProtoEnum>(_ text: String, accepted: [Value]) throws(ArgumentProblem) -> [Value] {
        let items = words(text)
        guard !items.isEmpty else { throw ArgumentProblem("is empty") }
        var values: [Value] = []
        for item in items {
            let value = try enumValue(item, accepted: accepted)
            if !values.contains(where: { $0.name == value.name }) { values.append(value) }
        }
        return values
    }

    /// Every value of several lists (`--category a,b --category c`), in order, without repeats.
    static func union<Value: ProtoEnum>(_ lists: [[Value]]) -> [Value] {
        var values: [Value] = []
        for value in lists.joined() where !values.contains(where: { $0.name == value.name }) { values.append(value) }
        return values
    }

    /// How help and completion spell an enum value: lower case with dashes (`enroute-to-pickup`).
    static func spelling<Value: ProtoEnum>(of value: Value) -> String {
        value.name.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// The spellings of several values, for help and completion.
    static func spellings<Value: ProtoEnum>(_ values: [Value]) -> [String] {
        values.map { spelling(of: $0) }
    }

    /// `Enroute-to pickup` → `ENROUTE_TO_PICKUP`.
    static func canonicalName(_ text: String) -> String {
        String(text.trimmingCharacters(in: .whitespaces).uppercased().map { $0 == "-" || $0 == " " ? "_" : $0 })
    }
}
