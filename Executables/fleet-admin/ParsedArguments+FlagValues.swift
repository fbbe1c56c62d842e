import FleetCLI
import FleetModel

/// Typed getters for fleet-admin's flag values: a value that does not parse is a usage error
/// (exit 2) naming the option and the value.
extension ParsedArguments {
    /// `--name LAT,LNG`, or nil when not given.
    func latLng(_ name: String) throws(UsageError) -> LatLng? {
        guard let text = string(name) else { return nil }
        return try converted(name, text) { text throws(FlagValueProblem) in try FlagValue.latLng(text) }
    }

    /// Every `--name LAT,LNG` of a repeatable option, in order.
    func latLngs(_ name: String) throws(UsageError) -> [LatLng] {
        var points: [LatLng] = []
        for text in strings(name) {
            points.append(try converted(name, text) { text throws(FlagValueProblem) in try FlagValue.latLng(text) })
        }
        return points
    }

    /// `--name value` (or the positional `<name>` when `isArgument`) as one of `accepted`, or nil when not given.
    func enumValue<Value: ProtoEnum>(_ name: String, accepted: [Value], isArgument: Bool = false) throws(UsageError) -> Value? {
        guard let text = string(name) else { return nil }
        return try converted(name, text, isArgument: isArgument) { text throws(FlagValueProblem) in
            try FlagValue.enumValue(text, accepted: accepted)
        }
    }

    /// `--name a,b` as values of `accepted`; empty when not given.
    func enumValues<Value: ProtoEnum>(_ name: String, accepted: [Value]) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in strings(name) {
            let more = try converted(name, text) { text throws(FlagValueProblem) in try FlagValue.enumValues(text, accepted: accepted) }
            for value in more where !values.contains(where: { $0.name == value.name }) { values.append(value) }
        }
        return values
    }

    /// `--name k=v,…` as vehicle attributes, or nil when not given.
    func vehicleAttributes(_ name: String) throws(UsageError) -> [VehicleAttribute]? {
        guard let text = string(name) else { return nil }
        return try converted(name, text) { text throws(FlagValueProblem) in try FlagValue.vehicleAttributes(text) }
    }

    /// `--name k=v,…` as trip attributes, or nil when not given.
    func tripAttributes(_ name: String) throws(UsageError) -> [TripAttribute]? {
        guard let text = string(name) else { return nil }
        return try converted(name, text) { text throws(FlagValueProblem) in try FlagValue.tripAttributes(text) }
    }

    /// `--name N` as an Int32 within `range`, or nil when not given.
    func int32(_ name: String, in range: ClosedRange<Int32> = Int32.min...Int32.max) throws(UsageError) -> Int32? {
        guard let value = try int(name) else { return nil }
        guard let small = Int32(exactly: value), range.contains(small) else {
            throw usageError("--\(name): \(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
        }
        return small
    }

    /// `--name 5m` as a proto duration, or nil when not given.
    func protoDuration(_ name: String) throws(UsageError) -> ProtoDuration? {
        try duration(name).map { ProtoDuration($0) }
    }

    private func converted<Value>(_ name: String, _ text: String, isArgument: Bool = false,
                                  _ parse: (String) throws(FlagValueProblem) -> Value) throws(UsageError) -> Value {
        do {
            return try parse(text)
        } catch {
            var from = ""
            if case .environment(let variable)? = source(name) { from = " (from \(variable))" }
            let label = isArgument ? "<\(name)>" : "--\(name)"
            throw usageError("\(label): '\(text)'\(from) \(error.message)")
        }
    }
}
