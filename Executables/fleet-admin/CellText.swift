import FleetModel

/// How single values read in tables and key: value blocks. Pure; `-` stands for "not set".
enum CellText {
    /// What an unset value shows as.
    static let none = "-"

    /// `52.52000,13.40000` (five decimals, about a metre), or `-`.
    static func point(_ point: LatLng?) -> String {
        guard let point else { return none }
        return decimal(point.latitude) + "," + decimal(point.longitude)
    }

    /// A terminal location's point (or its place ID when it has no point), or `-`.
    static func terminal(_ location: TerminalLocation?) -> String {
        guard let location else { return none }
        if let point = location.point { return self.point(point) }
        if let place = location.terminalPointId?.placeId ?? location.terminalPointId?.value { return place }
        return none
    }

    /// RFC 3339 to the second, in UTC (`2026-01-01T08:30:00Z`), or `-`.
    static func time(_ time: Timestamp?) -> String {
        guard let time else { return none }
        return Timestamp(seconds: time.seconds).rfc3339String
    }

    /// `850 m` or `12.4 km`, or `-`.
    static func distance<Number: BinaryInteger>(_ meters: Number?) -> String {
        guard let meters else { return none }
        let value = Int(meters)
        if abs(value) < 1000 { return "\(value) m" }
        let tenths = Int((Double(value) / 100).rounded())
        return "\(tenths / 10).\(abs(tenths % 10)) km"
    }

    /// `4m05s`, `1h02m`, `12s`, or `-`.
    static func duration(seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return none }
        let total = Int(seconds.rounded())
        let sign = total < 0 ? "-" : ""
        let value = abs(total)
        if value >= 3600 { return sign + "\(value / 3600)h" + two(value / 60 % 60) + "m" }
        if value >= 60 { return sign + "\(value / 60)m" + two(value % 60) + "s" }
        return sign + "\(value)s"
    }

    /// An enum's proto name, or `-`.
    static func name<Value: ProtoEnum>(_ value: Value?) -> String {
        value?.name ?? none
    }

    /// Names joined with `,`, or `-` when there are none.
    static func list(_ items: [String]) -> String {
        items.isEmpty ? none : items.joined(separator: ",")
    }

    /// Attributes (of a vehicle, trip, delivery vehicle or task) as `k=v,k2=v2`, or `-`.
    static func attributes<Attribute: KeyedAttribute>(_ attributes: [Attribute]) -> String {
        list(attributes.map { "\($0.key ?? "")=\(attributeValue($0))" })
    }

    /// A vehicle's estimated legs (the server's extension: legs of its route no road covers), one a line:
    /// `to waypoint 1 (STOP t-1): ROUTE_NOT_FOUND no motorcar route …`, each leg's end named by `place`.
    static func estimatedLegs(_ legs: [EstimatedRouteLeg], place: (Int) -> String) -> String {
        legs.map { leg in
            let end = leg.leg.map { place(Int($0)) } ?? "an unknown waypoint"
            return "to \(end): \(leg.cause ?? "") \(leg.reason ?? "")"
        }.joined(separator: "\n")
    }

    /// The last segment of a resource name (`providers/p/vehicles/v-1` → `v-1`), or the text itself.
    static func id(fromName name: String?) -> String {
        guard let name, !name.isEmpty else { return none }
        return name.split(separator: "/").last.map(String.init) ?? name
    }

    private static func attributeValue<Attribute: KeyedAttribute>(_ attribute: Attribute) -> String {
        if let text = attribute.stringValue { return text }
        if let flag = attribute.boolValue { return String(flag) }
        if let number = attribute.numberValue {
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
        return attribute.legacyValue ?? ""
    }

    private static func decimal(_ value: Double) -> String {
        let scaled = (value * 100_000).rounded()
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let fraction = String(magnitude % 100_000)
        return (negative ? "-" : "") + "\(magnitude / 100_000)." + String(repeating: "0", count: 5 - fraction.count) + fraction
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
