/// A type an option's value is read as: `@Option("capacity", help: "…") var capacity: Int32?` reads
/// `--capacity` with `Int32(argument:)`. A text that does not read throws an `ArgumentProblem`
/// saying what was expected; the parser adds the option's name and where the text came from.
public protocol ExpressibleByArgument: Sendable {
    /// The value `text` spells.
    init(argument text: String) throws(ArgumentProblem)
    /// The only spellings the parser accepts (with a "did you mean" hint for others), also offered
    /// by completion; empty when any text may be tried.
    static var allowedValues: [String] { get }
}

extension ExpressibleByArgument {
    /// Any text may be tried.
    public static var allowedValues: [String] { [] }
}

extension String: ExpressibleByArgument {
    /// The text as it is.
    public init(argument text: String) { self = text }
}

extension Int: ExpressibleByArgument {
    /// A whole number (spaces around it ignored).
    public init(argument text: String) throws(ArgumentProblem) {
        guard let value = Int(text.trimmingSpaces) else { throw ArgumentProblem("is not an integer") }
        self = value
    }
}

extension Int32: ExpressibleByArgument {
    /// A whole number that fits 32 bits (Fleet Engine's int32 fields).
    public init(argument text: String) throws(ArgumentProblem) {
        let value = try Int(argument: text)
        guard let small = Int32(exactly: value) else {
            throw .detail("\(value) is out of range (\(Int32.min)…\(Int32.max))")
        }
        self = small
    }
}

extension Double: ExpressibleByArgument {
    /// A finite number.
    public init(argument text: String) throws(ArgumentProblem) {
        guard let value = Double(text.trimmingSpaces), value.isFinite else { throw ArgumentProblem("is not a number") }
        self = value
    }
}

extension Duration: ExpressibleByArgument {
    /// A duration as people type it (`500ms`, `30s`, `5m`, `1h`, `1m30s`; a bare number is seconds).
    public init(argument text: String) throws(ArgumentProblem) {
        guard let value = DurationText.parse(text) else {
            throw ArgumentProblem("is not a duration (write it like 500ms, 30s, 5m, 1h or 1m30s)")
        }
        self = value
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
