/// A flag, declared once on the property it fills, as swift-argument-parser's `@Flag` is:
/// `@Flag("json", short: "j", help: "Print JSON.") var json: Bool`. With an `inversion`, the flag
/// has a `--no-` twin and the property is `Bool?`: true, false, or nil when neither is given (both
/// are a usage error). A flag with an environment variable takes 1/true/yes/on or 0/false/no/off from it.
@propertyWrapper
public struct Flag<Value: Sendable>: Sendable, Decodable {
    /// The flag, and its `--no-` twin when it has one.
    public let definitions: [OptionDefinition]
    private let reading: @Sendable (_ set: Bool, _ unset: Bool) -> Value
    private var value: Value
    /// Where the value came from; nil when the flag was not given.
    public private(set) var source: ParsedArguments.Source?

    /// Whether the flag is set (or, for one with an inversion, which of the two was given).
    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    /// The declaration and where its value came from.
    public var projectedValue: Flag<Value> { self }

    /// Whether the flag (or its twin) was given on the command line or by its environment variable.
    public var isGiven: Bool { source != nil }

    /// `--name` (and `-short`): true when given.
    public init(_ name: String, short: Character? = nil, help: String, environment: String? = nil, hidden: Bool = false) where Value == Bool {
        definitions = [.flag(name, short: short, help: help, environment: environment, hidden: hidden)]
        reading = { set, _ in set }
        value = false
    }

    /// `--name` and `--no-name`: true, false, or nil when neither is given; `inversion` is the help of `--no-name`.
    public init(_ name: String, help: String, inversion: String) where Value == Bool? {
        definitions = [.flag(name, help: help), .flag("no-" + name, help: inversion)]
        reading = { set, unset in set ? true : unset ? false : nil }
        value = nil
    }

    /// Made only by `OptionGroup`'s reading, which hands over the flag it read.
    public init(from decoder: any Decoder) throws {
        self = try ParsedFieldDecoder.field(Self.self, from: decoder)
    }
}

extension Flag: DeclaredField {
    func readField(from arguments: ParsedArguments) throws(UsageError) -> any DeclaredField {
        var read = self
        let given = definitions.map { arguments.declares(option: $0.name) && arguments.flag($0.name) }
        if given.count == 2, given[0], given[1] {
            throw arguments.usageError("--\(definitions[0].name) and --\(definitions[1].name) cannot be used together")
        }
        if let index = given.firstIndex(of: true) { read.source = arguments.source(definitions[index].name) }
        read.value = reading(given[0], given.count == 2 && given[1])
        return read
    }
}
