import FleetErrors

/// The AIP-160 filter syntax the list and search calls share: the bounds every filter is held to,
/// the tokenizer and the parser of AND, OR, NOT, `-` and parentheses. What a restriction
/// (`field <comparator> value`) means is left to each filter's `FilterGrammar`: vehicle attributes
/// (`FilterExpression`) or task properties (`TaskFilter`).
///
/// Every bound is checked before the parser can recurse past it: parentheses on the text before
/// tokenizing, parentheses and NOTs again while parsing, so that no filter, however nested, can
/// exhaust a serving thread's stack.
enum FilterSyntax {
    /// The longest filter accepted, in characters: room for the 50 restrictions with long keys and
    /// values, checked before anything else is done with the text.
    static let maximumLength = 16_384
    /// The deepest nesting accepted: parentheses and NOTs together. The parser recurses once per level,
    /// so this (checked for parentheses on the text before anything else, and for both while parsing)
    /// is what keeps a filter of thousands of `(` or NOTs from exhausting a serving thread's stack.
    static let maximumDepth = 32
    /// The most restrictions (`field = value`) a filter may hold, as Fleet Engine allows; counted
    /// while parsing, so a longer filter stops at the 51st.
    static let maximumRestrictions = 50

    /// Parses `text` with `Grammar`, or throws INVALID_ARGUMENT naming `filter` and, for a fault, its
    /// position (characters counted from 1).
    static func parse<Grammar: FilterGrammar>(_ text: String, as grammar: Grammar.Type) throws -> Grammar.Node {
        try checkNesting(text)
        let length = text.count
        guard length <= maximumLength else {
            throw FleetError.invalidArgument("filter is \(length) characters long; at most \(maximumLength) are allowed", field: "filter")
        }
        var parser = FilterParser<Grammar>(tokens: try tokenize(text, dialect: Grammar.dialect), source: text)
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

    static func tooDeep(at offset: Int) -> FleetError {
        FleetError.invalidArgument("filter nests parentheses and NOTs deeper than \(maximumDepth) levels at character \(offset + 1)", field: "filter")
    }

    private static func tokenize(_ text: String, dialect: FilterDialect) throws -> [FilterToken] {
        var tokens: [FilterToken] = []
        let chars = Array(text)
        var i = 0
        func next(is c: Character) -> Bool { i + 1 < chars.count && chars[i + 1] == c }
        while i < chars.count {
            let c = chars[i]
            let start = i
            if dialect.isSpace(c) { i += 1; continue }
            switch c {
            case "(": tokens.append(FilterToken(kind: .open, offset: start)); i += 1
            case ")": tokens.append(FilterToken(kind: .close, offset: start)); i += 1
            case "=": tokens.append(FilterToken(kind: .comparator(.equals), offset: start)); i += 1
            case "!" where next(is: "="): tokens.append(FilterToken(kind: .comparator(.notEquals), offset: start)); i += 2
            case "<" where dialect.orders:
                tokens.append(FilterToken(kind: .comparator(next(is: "=") ? .lessOrEqual : .less), offset: start))
                i += next(is: "=") ? 2 : 1
            case ">" where dialect.orders:
                tokens.append(FilterToken(kind: .comparator(next(is: "=") ? .greaterOrEqual : .greater), offset: start))
                i += next(is: "=") ? 2 : 1
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
                tokens.append(FilterToken(kind: .quoted(value), offset: start))
            default:
                var word = ""
                while i < chars.count, !dialect.endsWord(chars[i]) { word.append(chars[i]); i += 1 }
                guard !word.isEmpty else {
                    throw FleetError.invalidArgument("filter has an unexpected '\(c)' at character \(start + 1): \(text)", field: "filter")
                }
                tokens.append(FilterToken(kind: .word(word), offset: start))
            }
        }
        return tokens
    }
}

/// How two readings of the syntax differ. The vehicle filters keep the reading they have always had;
/// task filters read AIP-160 as written.
struct FilterDialect {
    /// Whether `<`, `<=`, `>` and `>=` are comparators (otherwise they are parts of words).
    var orders: Bool
    /// Whether OR binds tighter than AND, as AIP-160 has it (`a AND b OR c` is `a AND (b OR c)`);
    /// otherwise AND binds tighter (`(a AND b) OR c`).
    var orBindsTighter: Bool
    /// Whether a word starting with `-` at a restriction's place negates the rest (`-state = OPEN`),
    /// besides `-` standing alone.
    var minusPrefixNegates: Bool
    /// Whether any Unicode white space separates tokens; otherwise only space, tab and line feed.
    var anyWhiteSpace: Bool

    /// `ListVehicles`' and `SearchVehicles`' `filter` over `attributes.<key>`.
    static let vehicleAttributes = FilterDialect(orders: false, orBindsTighter: false, minusPrefixNegates: false, anyWhiteSpace: false)
    /// AIP-160 as written, for `ListTasks`.
    static let aip160 = FilterDialect(orders: true, orBindsTighter: true, minusPrefixNegates: true, anyWhiteSpace: true)

    func isSpace(_ c: Character) -> Bool {
        anyWhiteSpace ? c.isWhitespace : c == " " || c == "\t" || c == "\n"
    }

    func endsWord(_ c: Character) -> Bool {
        isSpace(c) || "()=!\"'".contains(c) || (orders && (c == "<" || c == ">"))
    }
}

/// A comparator between a field and a value.
enum FilterComparator: String, Sendable, CustomStringConvertible {
    case equals = "=", notEquals = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    var description: String { rawValue }

    /// Whether this is `=` or `!=`, which every field takes; the others order values.
    var isEquality: Bool { self == .equals || self == .notEquals }

    /// Whether `lhs <comparator> rhs` holds.
    func holds<Value: Comparable>(_ lhs: Value, _ rhs: Value) -> Bool {
        switch self {
        case .equals: lhs == rhs
        case .notEquals: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }
}

/// A token of a filter and the offset of its first character (from 0).
struct FilterToken {
    enum Kind: Equatable, CustomStringConvertible {
        case word(String), quoted(String), comparator(FilterComparator), open, close
        var description: String {
            switch self {
            case .word(let w): w
            case .quoted(let q): "\"\(q)\""
            case .comparator(let c): c.rawValue
            case .open: "("
            case .close: ")"
            }
        }
    }

    var kind: Kind
    var offset: Int
}

/// A value after a comparator: a word or a quoted string, and where it starts.
struct FilterValue {
    var text: String
    /// Whether it was written in quotes (so is a string, whatever it looks like).
    var quoted: Bool
    var offset: Int
}

/// A parsed filter's tree: restrictions joined by AND, OR and NOT. An enum with these three cases
/// conforms as it stands.
protocol FilterNode {
    static func and(_ left: Self, _ right: Self) -> Self
    static func or(_ left: Self, _ right: Self) -> Self
    static func not(_ operand: Self) -> Self
}

/// What one filter language makes of a restriction; the syntax around it is `FilterSyntax`'s.
protocol FilterGrammar {
    associatedtype Node: FilterNode
    /// How this language reads the shared syntax.
    static var dialect: FilterDialect { get }
    /// What a restriction looks like, closing every syntax error ("expected restrictions like …").
    static var expectation: String { get }
    /// The restriction whose field `field` starts at `offset`; the parser stands after the field,
    /// and this reads the comparator and the value with `takeComparator` and `takeValue`.
    static func restriction(field: String, at offset: Int, parser: inout FilterParser<Self>) throws -> Node
}

/// A recursive-descent parser over a filter's tokens; one level of recursion per parenthesis or NOT,
/// refused past `FilterSyntax.maximumDepth`.
struct FilterParser<Grammar: FilterGrammar> {
    typealias Node = Grammar.Node

    var tokens: [FilterToken]
    let source: String
    var position = 0
    var restrictions = 0
    /// Open parentheses and NOTs around the term being parsed.
    var depth = 0

    init(tokens: [FilterToken], source: String) {
        self.tokens = tokens
        self.source = source
    }

    /// INVALID_ARGUMENT naming `filter`, the fault and where it is (the end when `offset` is nil).
    func error(_ message: String, at offset: Int? = nil) -> FleetError {
        let place = (offset ?? source.count).advanced(by: 1)
        return FleetError.invalidArgument("filter \(message) at character \(place); \(Grammar.expectation): \(source)", field: "filter")
    }

    func kind(at index: Int) -> FilterToken.Kind? { index < tokens.count ? tokens[index].kind : nil }

    /// The offset of the token at the cursor, or nil at the end.
    var offset: Int? { position < tokens.count ? tokens[position].offset : nil }

    /// The comparator at the cursor, consumed; nil, consuming nothing, if there is none.
    mutating func takeComparator() -> FilterComparator? {
        guard case .comparator(let c)? = kind(at: position) else { return nil }
        position += 1
        return c
    }

    /// The word or quoted string at the cursor, consumed; nil, consuming nothing, if there is none.
    mutating func takeValue() -> FilterValue? {
        let value: FilterValue
        switch kind(at: position) {
        case .word(let w)?: value = FilterValue(text: w, quoted: false, offset: tokens[position].offset)
        case .quoted(let q)?: value = FilterValue(text: q, quoted: true, offset: tokens[position].offset)
        default: return nil
        }
        position += 1
        return value
    }

    mutating func expression() throws -> Node {
        Grammar.dialect.orBindsTighter ? try conjunction() : try disjunction()
    }

    /// Terms joined by `joiner`, each made by `operand`.
    private mutating func chain(_ joiner: String, _ join: (Node, Node) -> Node, _ operand: (inout Self) throws -> Node) throws -> Node {
        var left = try operand(&self)
        while kind(at: position) == .word(joiner) {
            position += 1
            left = join(left, try operand(&self))
        }
        return left
    }

    /// `a OR b`, OR binding looser: over sequences.
    private mutating func disjunction() throws -> Node {
        try chain("OR", Node.or) { try $0.sequence() }
    }

    /// `a AND b`, AND binding looser: over sequences.
    private mutating func conjunction() throws -> Node {
        try chain("AND", Node.and) { try $0.sequence() }
    }

    /// Terms side by side, which AND joins; when AND binds tighter, an explicit AND may stand between them.
    private mutating func sequence() throws -> Node {
        let tighter = Grammar.dialect.orBindsTighter
        func operand(_ parser: inout Self) throws -> Node {
            tighter ? try parser.alternatives() : try parser.term()
        }
        var left = try operand(&self)
        while let next = kind(at: position), next != .close, next != .word("OR") {
            if next == .word("AND") {
                guard !tighter else { break }
                position += 1
            }
            left = .and(left, try operand(&self))
        }
        return left
    }

    /// `a OR b` binding tighter than AND (AIP-160's factor).
    private mutating func alternatives() throws -> Node {
        try chain("OR", Node.or) { try $0.term() }
    }

    /// One level deeper for a parenthesis or a NOT, refused past `maximumDepth`.
    private mutating func descend(_ parse: (inout Self) throws -> Node) throws -> Node {
        guard depth < FilterSyntax.maximumDepth else { throw FilterSyntax.tooDeep(at: tokens[position].offset) }
        depth += 1
        defer { depth -= 1 }
        position += 1
        return try parse(&self)
    }

    private mutating func term() throws -> Node {
        guard let current = kind(at: position) else { throw error("ends early") }
        switch current {
        case .open:
            let inner = try descend { try $0.expression() }
            guard kind(at: position) == .close else { throw error("is missing ')'", at: offset) }
            position += 1
            return inner
        case .word("NOT"), .word("-"):
            return .not(try descend { try $0.term() })
        case .word(let word) where Grammar.dialect.minusPrefixNegates && word.hasPrefix("-"):
            // `-state = OPEN`: the rest of the word is read again one level deeper.
            let start = tokens[position].offset
            tokens.insert(FilterToken(kind: .word(String(word.dropFirst())), offset: start + 1), at: position + 1)
            return .not(try descend { try $0.term() })
        case .word(let field):
            let start = tokens[position].offset
            position += 1
            let restriction = try Grammar.restriction(field: field, at: start, parser: &self)
            restrictions += 1
            guard restrictions <= FilterSyntax.maximumRestrictions else {
                throw FleetError.invalidArgument("filter has more than \(FilterSyntax.maximumRestrictions) restrictions (restriction \(restrictions) is at character \(start + 1))", field: "filter")
            }
            return restriction
        default:
            throw error("has an unexpected '\(current)'", at: tokens[position].offset)
        }
    }
}
