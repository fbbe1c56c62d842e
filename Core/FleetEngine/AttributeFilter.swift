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

    func matches(_ attributes: [VehicleAttribute]) -> Bool {
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
/// combined with AND, OR, NOT and parentheses (a space between restrictions means AND).
indirect enum FilterExpression: Equatable {
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

    static func parse(_ text: String) throws -> FilterExpression {
        var parser = Parser(tokens: try tokenize(text), source: text)
        let expression = try parser.expression()
        guard parser.position == parser.tokens.count else {
            throw parser.error("unexpected '\(parser.tokens[parser.position])'")
        }
        guard parser.restrictions <= 50 else {
            throw FleetError.invalidArgument("filter has \(parser.restrictions) restrictions; at most 50 are allowed", field: "filter")
        }
        return expression
    }

    private enum Token: Equatable, CustomStringConvertible {
        case word(String), quoted(String), equals, notEquals, open, close
        var description: String {
            switch self {
            case .word(let w): w
            case .quoted(let q): "\"\(q)\""
            case .equals: "="
            case .notEquals: "!="
            case .open: "("
            case .close: ")"
            }
        }
    }

    private static func tokenize(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        var chars = Array(text)[...]
        while let c = chars.first {
            switch c {
            case " ", "\t", "\n": chars.removeFirst()
            case "(": tokens.append(.open); chars.removeFirst()
            case ")": tokens.append(.close); chars.removeFirst()
            case "=": tokens.append(.equals); chars.removeFirst()
            case "!" where chars.dropFirst().first == "=": tokens.append(.notEquals); chars.removeFirst(2)
            case "\"", "'":
                chars.removeFirst()
                var value = ""
                var closed = false
                while let d = chars.popFirst() {
                    if d == c { closed = true; break }
                    if d == "\\", let e = chars.popFirst() { value.append(e) } else { value.append(d) }
                }
                guard closed else {
                    throw FleetError.invalidArgument("filter has an unterminated string: \(text)", field: "filter")
                }
                tokens.append(.quoted(value))
            default:
                var word = ""
                while let d = chars.first, !" \t\n()=!\"'".contains(d) { word.append(d); chars.removeFirst() }
                guard !word.isEmpty else {
                    throw FleetError.invalidArgument("filter has an unexpected '\(c)': \(text)", field: "filter")
                }
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        let source: String
        var position = 0
        var restrictions = 0

        func error(_ message: String) -> FleetError {
            FleetError.invalidArgument("filter \(message); expected restrictions like attributes.key = \"value\" joined by AND/OR: \(source)", field: "filter")
        }

        mutating func expression() throws -> FilterExpression {
            var left = try conjunction()
            while position < tokens.count, tokens[position] == .word("OR") {
                position += 1
                left = .or(left, try conjunction())
            }
            return left
        }

        mutating func conjunction() throws -> FilterExpression {
            var left = try factor()
            while position < tokens.count, tokens[position] != .close, tokens[position] != .word("OR") {
                if tokens[position] == .word("AND") { position += 1 }
                left = .and(left, try factor())
            }
            return left
        }

        mutating func factor() throws -> FilterExpression {
            guard position < tokens.count else { throw error("ends early") }
            switch tokens[position] {
            case .open:
                position += 1
                let inner = try expression()
                guard position < tokens.count, tokens[position] == .close else { throw error("is missing ')'") }
                position += 1
                return inner
            case .word("NOT"), .word("-"):
                position += 1
                return .not(try factor())
            case .word(let field):
                guard field.hasPrefix("attributes."), field.count > "attributes.".count else {
                    throw error("can only restrict attributes.<key>, got '\(field)'")
                }
                position += 1
                guard position < tokens.count, tokens[position] == .equals || tokens[position] == .notEquals else {
                    throw error("needs '=' after \(field)")
                }
                let negated = tokens[position] == .notEquals
                position += 1
                guard position < tokens.count else { throw error("needs a value after \(field)") }
                let value: String
                switch tokens[position] {
                case .word(let w): value = w
                case .quoted(let q): value = q
                default: throw error("needs a value after \(field)")
                }
                position += 1
                restrictions += 1
                return .equals(key: String(field.dropFirst("attributes.".count)), value: value, negated: negated)
            default:
                throw error("has an unexpected '\(tokens[position])'")
            }
        }
    }
}
