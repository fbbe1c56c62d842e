import FleetCLI
import FleetModel

/// Typed getters for fleet-admin's flag values, read through the option's declaration (so a
/// misspelt name cannot compile): a value that does not parse is a usage error (exit 2) naming the
/// option and the value.
extension ParsedArguments {
    /// `--name LAT,LNG`, or nil when not given.
    func latLng(_ option: OptionDefinition) throws(UsageError) -> LatLng? {
        try parsed(option, FlagValue.latLng)
    }

    /// Every `--name LAT,LNG` of a repeatable option, in order.
    func latLngs(_ option: OptionDefinition) throws(UsageError) -> [LatLng] {
        try parsedAll(option, FlagValue.latLng)
    }

    /// Every `--name KEY=VALUE` of a repeatable option as attributes, or nil when not given; a
    /// `--name ''` alone is no attributes.
    func attributeList<Attribute: KeyedAttribute>(_ option: OptionDefinition) throws(UsageError) -> [Attribute]? {
        let attributes = try parsedAll(option) { text throws(ArgumentProblem) -> Attribute? in try FlagValue.attribute(text) }
        return strings(option).isEmpty ? nil : attributes.compactMap { $0 }
    }

    /// Every `--name LAT,LNG:TASK[,TASK…][:STATE]` of a repeatable option, in order.
    func vehicleStops(_ option: OptionDefinition) throws(UsageError) -> [VehicleJourneySegment] {
        try parsedAll(option, FlagValue.vehicleStop)
    }

    /// `--name LOW_LAT,LOW_LNG,HIGH_LAT,HIGH_LNG`, or nil when not given.
    func viewport(_ option: OptionDefinition) throws(UsageError) -> Viewport? {
        try parsed(option, FlagValue.viewport)
    }

    /// `--name TIME` (RFC 3339), or nil when not given.
    func timestamp(_ option: OptionDefinition) throws(UsageError) -> Timestamp? {
        try parsed(option, FlagValue.timestamp)
    }

    /// `--name FROM,TO` (RFC 3339), or nil when not given.
    func timeWindow(_ option: OptionDefinition) throws(UsageError) -> TimeWindow? {
        try parsed(option, FlagValue.timeWindow)
    }

    /// The value of an enum option, as its type, or nil when not given.
    func value<Value>(_ option: EnumOption<Value>) throws(UsageError) -> Value? {
        guard let text = string(option.option) else { return nil }
        return try converted(option.option.name, text) { text throws(ArgumentProblem) in
            try FlagValue.enumValue(text, accepted: option.accepted)
        }
    }

    /// The value of an enum argument, as its type, or nil when not given.
    func value<Value>(_ argument: EnumArgument<Value>) throws(UsageError) -> Value? {
        guard let text = string(argument.argument) else { return nil }
        return try converted(argument.argument.name, text, isArgument: true) { text throws(ArgumentProblem) in
            try FlagValue.enumValue(text, accepted: argument.accepted)
        }
    }

    /// Every value of an enum option given as `a,b` (and, when repeatable, several times), without
    /// repeats; empty when not given.
    func values<Value>(_ option: EnumOption<Value>) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in strings(option.option) {
            let more = try converted(option.option.name, text) { text throws(ArgumentProblem) in
                try FlagValue.enumValues(text, accepted: option.accepted)
            }
            for value in more where !values.contains(where: { $0.name == value.name }) { values.append(value) }
        }
        return values
    }

    /// `--name k=v,…` as attributes, or nil when not given.
    func attributes<Attribute: KeyedAttribute>(_ option: OptionDefinition) throws(UsageError) -> [Attribute]? {
        try parsed(option, FlagValue.attributes)
    }

    /// `--name N` as an Int32 within `range`, or nil when not given.
    func int32(_ option: OptionDefinition, in range: ClosedRange<Int32> = Int32.min...Int32.max) throws(UsageError) -> Int32? {
        guard let value = try int(option) else { return nil }
        guard let small = Int32(exactly: value), range.contains(small) else {
            throw usageError("--\(option.name): \(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
        }
        return small
    }

    /// `--name 5m` as a proto duration, or nil when not given.
    func protoDuration(_ option: OptionDefinition) throws(UsageError) -> ProtoDuration? {
        try duration(option).map { ProtoDuration($0) }
    }

    /// The value of `option` read by `parse`, or nil when not given.
    private func parsed<Value>(_ option: OptionDefinition, _ parse: (String) throws(ArgumentProblem) -> Value) throws(UsageError) -> Value? {
        guard let text = string(option) else { return nil }
        return try converted(option.name, text, parse)
    }

    /// Every value of a repeatable `option` read by `parse`, in order.
    private func parsedAll<Value>(_ option: OptionDefinition, _ parse: (String) throws(ArgumentProblem) -> Value) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in strings(option) { values.append(try converted(option.name, text, parse)) }
        return values
    }

    private func converted<Value>(_ name: String, _ text: String, isArgument: Bool = false,
                                  _ parse: (String) throws(ArgumentProblem) -> Value) throws(UsageError) -> Value {
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
