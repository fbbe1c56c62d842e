import FleetCLI
import FleetModel

/// Typed getters for fleet-admin's flag values, read through the option's declaration (so a
/// misspelt name cannot compile): a value that does not parse is a usage error (exit 2) naming the
/// option and the value.
extension ParsedArguments {
    /// `--name LAT,LNG`, or nil when not given.
    func latLng(_ option: Option) throws(UsageError) -> LatLng? {
        guard let text = string(option) else { return nil }
        return try converted(option.name, text) { text throws(FlagValueProblem) in try FlagValue.latLng(text) }
    }

    /// Every `--name LAT,LNG` of a repeatable option, in order.
    func latLngs(_ option: Option) throws(UsageError) -> [LatLng] {
        var points: [LatLng] = []
        for text in strings(option) {
            points.append(try converted(option.name, text) { text throws(FlagValueProblem) in try FlagValue.latLng(text) })
        }
        return points
    }

    /// The value of an enum option, as its type, or nil when not given.
    func value<Value>(_ option: EnumOption<Value>) throws(UsageError) -> Value? {
        guard let text = string(option.option) else { return nil }
        return try converted(option.option.name, text) { text throws(FlagValueProblem) in
            try FlagValue.enumValue(text, accepted: option.accepted)
        }
    }

    /// The value of an enum argument, as its type, or nil when not given.
    func value<Value>(_ argument: EnumArgument<Value>) throws(UsageError) -> Value? {
        guard let text = string(argument.argument) else { return nil }
        return try converted(argument.argument.name, text, isArgument: true) { text throws(FlagValueProblem) in
            try FlagValue.enumValue(text, accepted: argument.accepted)
        }
    }

    /// Every value of an enum option given as `a,b` (and, when repeatable, several times), without
    /// repeats; empty when not given.
    func values<Value>(_ option: EnumOption<Value>) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in strings(option.option) {
            let more = try converted(option.option.name, text) { text throws(FlagValueProblem) in
                try FlagValue.enumValues(text, accepted: option.accepted)
            }
            for value in more where !values.contains(where: { $0.name == value.name }) { values.append(value) }
        }
        return values
    }

    /// `--name k=v,…` as vehicle attributes, or nil when not given.
    func vehicleAttributes(_ option: Option) throws(UsageError) -> [VehicleAttribute]? {
        guard let text = string(option) else { return nil }
        return try converted(option.name, text) { text throws(FlagValueProblem) in try FlagValue.vehicleAttributes(text) }
    }

    /// `--name k=v,…` as trip attributes, or nil when not given.
    func tripAttributes(_ option: Option) throws(UsageError) -> [TripAttribute]? {
        guard let text = string(option) else { return nil }
        return try converted(option.name, text) { text throws(FlagValueProblem) in try FlagValue.tripAttributes(text) }
    }

    /// `--name N` as an Int32 within `range`, or nil when not given.
    func int32(_ option: Option, in range: ClosedRange<Int32> = Int32.min...Int32.max) throws(UsageError) -> Int32? {
        guard let value = try int(option) else { return nil }
        guard let small = Int32(exactly: value), range.contains(small) else {
            throw usageError("--\(option.name): \(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
        }
        return small
    }

    /// `--name 5m` as a proto duration, or nil when not given.
    func protoDuration(_ option: Option) throws(UsageError) -> ProtoDuration? {
        try duration(option).map { ProtoDuration($0) }
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
