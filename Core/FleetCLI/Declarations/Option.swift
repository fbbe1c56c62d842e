/// An option with a value, declared once on the property it fills, as swift-argument-parser's
/// `@Option` is: the declaration gives the name, help, default, environment variable and the
/// conversion and checks of the value; the group's option list (`OptionGroup.options`), help,
/// completion and the reading all come from it.
///
/// ```swift
/// struct ServeFlags: OptionGroup {
///     @Option("listen", valueName: "host:port", help: "Address to listen on.", default: "127.0.0.1:8080",
///             environment: "FLEET_LISTEN")
///     var listen: String
///     @Option("max-body", valueName: "bytes", help: "Largest request body.", default: "1048576", check: .positive)
///     var maxBody: Int
///     @Option("rate-limit", valueName: "rps", help: "Requests a second.") var rateLimit: Double?
///     @Option("allow-host", valueName: "name", help: "Another Host to answer.") var allowedHosts: [String]
/// }
/// ```
///
/// The property's type says how the option is taken: `T?` is optional; `T` has a `default`, or else
/// is required; `[T]` is repeatable, every value kept in order. `T` reads itself
/// (`ExpressibleByArgument`), or a `transform` reads it. An option the running command does not
/// declare (a group shared by commands that take part of it) reads as not given.
@propertyWrapper
public struct Option<Value: Sendable>: Sendable, Decodable {
    /// What help, completion and the parser know of the option.
    public let definition: OptionDefinition
    /// Reads the texts given (the last one matters unless repeatable), or nil when there is none.
    private let reading: @Sendable ([String], _ fail: (String, ArgumentProblem) -> UsageError) throws(UsageError) -> Value?
    private var value: Value?
    /// Where the value came from; nil when it was not given and has no default, or when the
    /// running command does not declare the option.
    public private(set) var source: ParsedArguments.Source?
    /// Whether the running command declares the option.
    public private(set) var isDeclared = false

    /// The value; reading a required option that was never parsed is a programming error.
    public var wrappedValue: Value {
        get {
            guard let value else { preconditionFailure("--\(definition.name) is required and was not parsed") }
            return value
        }
        set { value = newValue }
    }

    /// The declaration and where its value came from: `$listen.isGiven`, `$listen.definition.name`.
    public var projectedValue: Option<Value> { self }

    /// Whether the value was given on the command line or by its environment variable (not only by its default).
    public var isGiven: Bool { source != nil && source != .defaultValue }

    private init<Element>(_ definition: OptionDefinition,
                          transform: @escaping @Sendable (String) throws(ArgumentProblem) -> Element,
                          check: OptionCheck<Element>?, assemble: @escaping @Sendable ([Element]) -> Value?) {
        self.definition = definition
        reading = { texts, fail throws(UsageError) in
            var elements: [Element] = []
            for text in texts {
                do throws(ArgumentProblem) {
                    let element = try transform(text)
                    try check?.body(element)
                    elements.append(element)
                } catch {
                    throw fail(text, error)
                }
            }
            return assemble(elements)
        }
        // Unparsed (a group made in a test), the value is what no command line gives.
        value = try? reading(definition.defaultValue.map { [$0] } ?? [], { _, problem in UsageError(problem.message, commandPath: []) })
    }

    /// The option read from parsed arguments.
    func read(from arguments: ParsedArguments) throws(UsageError) -> Option<Value> {
        var read = self
        read.isDeclared = arguments.declares(option: definition.name)
        let texts: [String]
        if read.isDeclared {
            texts = arguments.strings(definition.name)
            read.source = arguments.source(definition.name)
        } else {
            texts = definition.defaultValue.map { [$0] } ?? []
        }
        read.value = try reading(texts) { text, problem in
            arguments.usageError(problem.report(label: "--" + definition.name, text: text, source: read.source))
        }
        return read
    }

    /// Made only by `OptionGroup`'s reading, which hands over the option it read.
    public init(from decoder: any Decoder) throws {
        self = try ParsedFieldDecoder.field(Self.self, from: decoder)
    }
}

extension Option {
    /// An optional option: nil when not given.
    public init<T: ExpressibleByArgument>(_ name: String, short: Character? = nil, valueName: String = "value", help: String,
                                          environment: String? = nil, completion: Completion? = nil, hidden: Bool = false,
                                          check: OptionCheck<T>? = nil) where Value == T? {
        self.init(name, short: short, valueName: valueName, help: help, environment: environment,
                  allowedValues: T.allowedValues, completion: completion, hidden: hidden,
                  transform: { text throws(ArgumentProblem) in try T(argument: text) }, check: check)
    }

    /// An optional option read by `transform`: nil when not given.
    public init<T>(_ name: String, short: Character? = nil, valueName: String = "value", help: String,
                   environment: String? = nil, allowedValues: [String] = [], completion: Completion? = nil, hidden: Bool = false,
                   transform: @escaping @Sendable (String) throws(ArgumentProblem) -> T, check: OptionCheck<T>? = nil) where Value == T? {
        self.init(.value(name, short: short, valueName: valueName, help: help, environment: environment,
                         allowedValues: allowedValues, completion: completion, hidden: hidden),
                  transform: transform, check: check, assemble: { $0.last })
    }

    /// An option with a default (the text help shows, read like a typed one), or a required one when
    /// `default` is nil: a usage error when neither the command line nor the environment gives it.
    public init(_ name: String, short: Character? = nil, valueName: String = "value", help: String, default defaultValue: String? = nil,
                environment: String? = nil, completion: Completion? = nil, hidden: Bool = false,
                check: OptionCheck<Value>? = nil) where Value: ExpressibleByArgument {
        self.init(name, short: short, valueName: valueName, help: help, default: defaultValue, environment: environment,
                  allowedValues: Value.allowedValues, completion: completion, hidden: hidden,
                  transform: { text throws(ArgumentProblem) in try Value(argument: text) }, check: check)
    }

    /// An option read by `transform`, with a default or else required. (Disfavoured, so that a
    /// `transform` closure for a `T?` property declares an optional option, not a required one.)
    @_disfavoredOverload
    public init(_ name: String, short: Character? = nil, valueName: String = "value", help: String, default defaultValue: String? = nil,
                environment: String? = nil, allowedValues: [String] = [], completion: Completion? = nil, hidden: Bool = false,
                transform: @escaping @Sendable (String) throws(ArgumentProblem) -> Value, check: OptionCheck<Value>? = nil) {
        self.init(.value(name, short: short, valueName: valueName, help: help, default: defaultValue, environment: environment,
                         required: defaultValue == nil, allowedValues: allowedValues, completion: completion, hidden: hidden),
                  transform: transform, check: check, assemble: { $0.last })
    }

    /// A repeatable option: every value, in order; empty when not given.
    public init<T: ExpressibleByArgument>(_ name: String, short: Character? = nil, valueName: String = "value", help: String,
                                          environment: String? = nil, completion: Completion? = nil, hidden: Bool = false,
                                          check: OptionCheck<T>? = nil) where Value == [T] {
        self.init(name, short: short, valueName: valueName, help: help, environment: environment,
                  allowedValues: T.allowedValues, completion: completion, hidden: hidden,
                  transform: { text throws(ArgumentProblem) in try T(argument: text) }, check: check)
    }

    /// A repeatable option read by `transform`: every value, in order; empty when not given.
    public init<T>(_ name: String, short: Character? = nil, valueName: String = "value", help: String,
                   environment: String? = nil, allowedValues: [String] = [], completion: Completion? = nil, hidden: Bool = false,
                   transform: @escaping @Sendable (String) throws(ArgumentProblem) -> T, check: OptionCheck<T>? = nil) where Value == [T] {
        self.init(.value(name, short: short, valueName: valueName, help: help, environment: environment, repeatable: true,
                         allowedValues: allowedValues, completion: completion, hidden: hidden),
                  transform: transform, check: check, assemble: { $0 })
    }
}

extension Option: DeclaredField {
    var definitions: [OptionDefinition] { [definition] }

    func readField(from arguments: ParsedArguments) throws(UsageError) -> any DeclaredField {
        try read(from: arguments)
    }
}

/// A check of an option's value beyond its type (`--max-body` must be positive), declared with the
/// option: a value it refuses is a usage error naming the option.
public struct OptionCheck<Value>: Sendable {
    /// Throws the problem of a value it refuses.
    let body: @Sendable (Value) throws(ArgumentProblem) -> Void

    /// A check.
    public init(_ body: @escaping @Sendable (Value) throws(ArgumentProblem) -> Void) {
        self.body = body
    }
}

extension OptionCheck where Value: Comparable & Sendable {
    /// Within `range`: `--name: VALUE is out of range (LOW…HIGH)` otherwise.
    public static func within(_ range: ClosedRange<Value>) -> OptionCheck {
        OptionCheck { value throws(ArgumentProblem) in
            guard range.contains(value) else { throw .detail("\(value) is out of range (\(range.lowerBound)…\(range.upperBound))") }
        }
    }
}

extension OptionCheck where Value: Numeric & Comparable & Sendable {
    /// Above zero: `--name must be positive` otherwise.
    public static var positive: OptionCheck {
        let zero = Value.zero
        return OptionCheck { value throws(ArgumentProblem) in
            guard value > zero else { throw .sentence("must be positive") }
        }
    }

    /// Zero or more: `--name must be 0 or more` otherwise.
    public static var zeroOrMore: OptionCheck {
        let zero = Value.zero
        return OptionCheck { value throws(ArgumentProblem) in
            guard value >= zero else { throw .sentence("must be 0 or more") }
        }
    }
}
