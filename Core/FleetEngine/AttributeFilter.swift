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

    /// The longest filter accepted, in characters: room for the 50 restrictions with long keys and
    /// values, checked before anything else is done with the text.
    static let maximumLength = 16_384
    /// The deepest nesting accepted: parentheses and NOTs together. The parser recurses once per level,
    /// so this (checked for parentheses on the text before anything else, and for both while parsing)
    /// is what keeps a filter of thousands of `(` or NOTs from exhausting a serving thread's stack.
    static let maximumDepth = 32
    /// The most restrictions (`attributes.key = value`) a filter may hold, as Fleet Engine allows;
    /// counted while parsing, so a longer filter stops at the 51st.
    static let maximumRestrictions = 50

    /// Parses `text`, or throws INVALID_ARGUMENT naming `filter` and, for a fault, its position
    /// (characters counted from 1).
    static func parse(_ text: String) throws -> FilterExpression {
        try checkNesting(text)
        let length = text.count
        guard length <= maximumLength else {
            throw FleetError.invalidArgument("filter is \(length) characters long; at most \(maximumLength) are allowed", field: "filter")
        }
        var parser = Parser(tokens: try tokenize(text), source: text)
        let expression = try parser.expression()
        guard parser.position == parser.tokens.count else {
            throw parser.error("has an unexpected '\(parser.tokens[parser.position].kind)'", at: parser.tokens[parser.position].offset)
        }
        return expression
    }

    /// Refuses parentheses (outside quoted values) nested deeper than `maximumDepth`, in one pass
    /// over the text that stops at the first one too deep: done first, so a filter of 10,000 `(`
    /// is answered with where it went too deep.
    private static func checkNesting(_ text: String) throws {
        var depth = 0
        var quote: Character?
        var escaped = false
        for (offset, c) in text.enumerated() {
            if let open = quote {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == open { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c
            case "(":
                depth += 1
                guard depth <= maximumDepth else { throw tooDeep(at: offset) }
            case ")": depth = max(0, depth - 1)
            default: continue
            }
        }
    }

    private static func tooDeep(at offset: Int) -> FleetError {
        FleetError.invalidArgument("filter nests parentheses and NOTs deeper than \(maximumDepth) levels at character \(offset + 1)", field: "filter")
    }

    private enum Kind: Equatable, CustomStringConvertible {
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

    /// A token and the offset of its first character in the filter (from 0).
    private struct Token {
        var kind: Kind
        var offset: Int
    }

    private static func tokenize(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let start = i
            switch c {
            case " ", "\t", "\n": i += 1
            case "(": tokens.append(Token(kind: .open, offset: start)); i += 1
            case ")": tokens.append(Token(kind: .close, offset: start)); i += 1
            case "=": tokens.append(Token(kind: .equals, offset: start)); i += 1
            case "!" where i + 1 < chars.count && chars[i + 1] == "=": tokens.append(Token(kind: .notEquals, offset: start)); i += 2
            case "\"", "'":
                i += 1
                var value = ""
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    i += 1
                    if d == c { closed = true; break }
                    if d == "\\", i < chars.count { value.append(chars[i]); i += 1 } else { value.append(d) }
                }
                guard closed else {
                    throw FleetError.invalidArgument("filter has an unterminated string starting at character \(start + 1): \(text)", field: "filter")
                }
                tokens.append(Token(kind: .quoted(value), offset: start))
            default:
                var word = ""
                while i < chars.count, !" \t\n()=!\"'".contains(chars[i]) { word.append(chars[i]); i += 1 }
                guard !word.isEmpty else {
                    throw FleetError.invalidArgument("filter has an unexpected '\(c)' at character \(start + 1): \(text)", field: "filter")
                }
                tokens.append(Token(kind: .word(word), offset: start))
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        let source: String
        var position = 0
        var restrictions = 0
        /// Open parentheses and NOTs around the factor being parsed.
        var depth = 0

        func error(_ message: String, at offset: Int? = nil) -> FleetError {
            let place = (offset ?? source.count).advanced(by: 1)
            return FleetError.invalidArgument("filter \(message) at character \(place); expected restrictions like attributes.key = \"value\" joined by AND/OR: \(source)", field: "filter")
        }

        func kind(at index: Int) -> Kind? { index < tokens.count ? tokens[index].kind : nil }

        mutating func expression() throws -> FilterExpression {
            var left = try conjunction()
            while kind(at: position) == .word("OR") {
                position += 1
                left = .or(left, try conjunction())
            }
            return left
        }

        mutating func conjunction() throws -> FilterExpression {
            var left = try factor()
            while let next = kind(at: position), next != .close, next != .word("OR") {
                if next == .word("AND") { position += 1 }
                left = .and(left, try factor())
            }
            return left
        }

        /// One level deeper for a parenthesis or a NOT, refused past `maximumDepth`.
        mutating func descend(_ parse: (inout Parser) throws -> FilterExpression) throws -> FilterExpression {
            guard depth < FilterExpression.maximumDepth else { throw FilterExpression.tooDeep(at: tokens[position].offset) }
            depth += 1
            defer { depth -= 1 }
            position += 1
            return try parse(&self)
        }

        mutating func factor() throws -> FilterExpression {
            guard let current = kind(at: position) else { throw error("ends early") }
            switch current {
            case .open:
                let inner = try descend { try $0.expression() }
                guard kind(at: position) == .close else { throw error("is missing ')'", at: position < tokens.count ? tokens[position].offset : nil) }
                position += 1
                return inner
            case .word("NOT"), .word("-"):
                return .not(try descend { try $0.factor() })
            case .word(let field):
                let start = tokens[position].offset
                guard field.hasPrefix("attributes."), field.count > "attributes.".count else {
                    throw error("can only restrict attributes.<key>, got '\(field)'", at: start)
                }
                position += 1
                guard let op = kind(at: position), op == .equals || op == .notEquals else {
                    throw error("needs '=' after \(field)", at: start)
                }
                let negated = op == .notEquals
                position += 1
                let value: String
                switch kind(at: position) {
                case .word(let w)?: value = w
                case .quoted(let q)?: value = q
                default: throw error("needs a value after \(field)", at: start)
                }
                position += 1
                restrictions += 1
                guard restrictions <= FilterExpression.maximumRestrictions else {
                    throw FleetError.invalidArgument("filter has more than \(FilterExpression.maximumRestrictions) restrictions (restriction \(restrictions) is at character \(start + 1))", field: "filter")
                }
                return .equals(key: String(field.dropFirst("attributes.".count)), value: value, negated: negated)
            default:
                throw error("has an unexpected '\(current)'", at: tokens[position].offset)
            }
        }
    }
}
