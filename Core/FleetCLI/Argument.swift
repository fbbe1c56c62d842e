/// A positional argument of a command.
public struct Argument: Sendable, Hashable {
    /// How many values the argument takes.
    public enum Arity: Sendable, Hashable {
        /// Exactly one.
        case required
        /// Zero or one.
        case optional
        /// At least `minimum`, as many as given; only the last argument may be variadic.
        case variadic(minimum: Int)
    }

    /// The name, used in help (`<code>`) and by `ParsedArguments` getters.
    public let name: String
    /// One line (or a few sentences) of help.
    public let help: String
    /// How many values it takes.
    public let arity: Arity
    /// How shells complete it.
    public let completion: Completion

    /// A positional argument.
    public init(_ name: String, help: String, arity: Arity = .required, completion: Completion = .none) {
        self.name = name
        self.help = help
        self.arity = arity
        self.completion = completion
    }

    /// How help shows the argument: `<name>`, `[<name>]`, `<name> ...`, `[<name> ...]`.
    public var synopsis: String {
        switch arity {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .variadic(let minimum): minimum > 0 ? "<\(name)> ..." : "[<\(name)> ...]"
        }
    }
}
