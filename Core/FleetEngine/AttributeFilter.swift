import FleetErrors
import FleetModel
import Foundation

/// Which vehicle attributes a list or search asks for: required ones (AND), one-of lists
/// (OR inside, AND across), one-of sets (AND inside, OR across), and an AIP-160 `filter`
/// over `attributes.<key>` (Fleet Engine's replacement for the three lists).
struct AttributeFilter {
    typealias Pair = (key: String, value: String)

    var required: [Pair] = []
    var oneOf: [[Pair]] = []
    var oneOfSets: [[Pair]] = []
    var expression: FilterExpression?

    /// ListVehicles' form: strings "key:value" and "k1:v1|k2:v2".
    init(listRequired: [String], oneOf: [String], oneOfSets: [String], filter: String?) throws {
        func pair(_ text: Substring, field: String) throws -> Pair {
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                throw FleetError.invalidArgument("\(field) entry '\(text)' must be of the form key:value", field: field)
            }
            return (String(text[..<colon]), String(text[text.index(after: colon)...]))
        }
        required = try listRequired.map { try pair(Substring($0), field: "requiredAttributes") }
        self.oneOf = try oneOf.map { try $0.split(separator: "|").map { try pair($0, field: "requiredOneOfAttributes") } }
        self.oneOfSets = try oneOfSets.map { try $0.split(separator: "|").map { try pair($0, field: "requiredOneOfAttributeSets") } }
        try setFilter(filter)
    }

    /// ListDeliveryVehicles' form: only an AIP-160 `filter` over `attributes.<key>`.
    init(filter: String?) throws {
        try setFilter(filter)
    }

    /// SearchVehicles' form: attribute messages.
    init(searchRequired: [VehicleAttribute], oneOf: [VehicleAttributeList], oneOfSets: [VehicleAttributeList], filter: String?) throws {
        func pairs(_ list: [VehicleAttribute]) -> [Pair] { list.map { ($0.key ?? "", AttributeValue($0).text) } }
        guard searchRequired.count <= 50 else {
            throw FleetError.invalidArgument("requiredAttributes has \(searchRequired.count) entries; at most 50 are allowed", field: "requiredAttributes")
        }
        required = pairs(searchRequired)
        self.oneOf = oneOf.map { pairs($0.attributes) }
        self.oneOfSets = oneOfSets.map { pairs($0.attributes) }
        try setFilter(filter)
    }

    private mutating func setFilter(_ filter: String?) throws {
        guard let filter, !filter.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        guard required.isEmpty, oneOf.isEmpty, oneOfSets.isEmpty else {
            throw FleetError.invalidArgument("filter replaces requiredAttributes, requiredOneOfAttributes and requiredOneOfAttributeSets: when filter is set they must be empty", field: "filter")
        }
        expression = try FilterExpression.parse(filter)
    }

    /// Whether the filter asks for nothing.
    var isEmpty: Bool { required.isEmpty && oneOf.isEmpty && oneOfSets.isEmpty && expression == nil }

    func matches(_ attributes: [some KeyedAttribute]) -> Bool {
        if isEmpty { return true }
        var values: [String: String] = [:]
        for a in attributes { if let key = a.key { values[key] = AttributeValue(a).text } }
        func has(_ p: Pair) -> Bool { values[p.key] == p.value }
        guard required.allSatisfy(has) else { return false }
        guard oneOf.allSatisfy({ $0.contains(where: has) }) else { return false }
        if !oneOfSets.isEmpty && !oneOfSets.contains(where: { $0.allSatisfy(has) }) { return false }
        return expression?.evaluate(values) ?? true
    }
}

/// A parsed AIP-160 filter over vehicle attributes: `attributes.<key> = <value>` restrictions
/// combined with AND, OR, NOT and parentheses (a space between restrictions means AND). Its syntax
/// and bounds are `FilterSyntax`'s, read in the `vehicleAttributes` dialect (AND binds tighter
/// than OR, as this filter has always been read).
indirect enum FilterExpression: Equatable, FilterNode {
    case equals(key: String, value: String, negated: Bool)
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)

    func evaluate(_ values: [String: String]) -> Bool {
        switch self {
        case .equals(let key, let value, let negated): return (values[key] == value) != negated
        case .and(let a, let b): return a.evaluate(values) && b.evaluate(values)
        case .or(let a, let b): return a.evaluate(values) || b.evaluate(values)
        case .not(let a): return !a.evaluate(values)
        }
    }

    static var maximumLength: Int { FilterSyntax.maximumLength }
    static var maximumDepth: Int { FilterSyntax.maximumDepth }
    static var maximumRestrictions: Int { FilterSyntax.maximumRestrictions }

    /// Parses `text`, or throws INVALID_ARGUMENT naming `filter` and, for a fault, its position
    /// (characters counted from 1).
    static func parse(_ text: String) throws -> FilterExpression {
        try FilterSyntax.parse(text, as: FilterExpression.self)
    }
}

extension FilterExpression: FilterGrammar {
    static let dialect = FilterDialect.vehicleAttributes
    static let expectation = "expected restrictions like attributes.key = \"value\" joined by AND/OR"

    static func restriction(field: String, at start: Int, parser: inout FilterParser<FilterExpression>) throws -> FilterExpression {
        guard field.hasPrefix("attributes."), field.count > "attributes.".count else {
            throw parser.error("can only restrict attributes.<key>, got '\(field)'", at: start)
        }
        guard let comparator = parser.takeComparator(), comparator.isEquality else {
            throw parser.error("needs '=' after \(field)", at: start)
        }
        guard let value = parser.takeValue() else {
            throw parser.error("needs a value after \(field)", at: start)
        }
        return .equals(key: String(field.dropFirst("attributes.".count)), value: value.text, negated: comparator == .notEquals)
    }
}
