/// Options declared once, as properties with `@Option` and `@Flag`, and read together into a typed
/// value for every command that needs them, as swift-argument-parser's `ParsableArguments` are:
///
/// ```swift
/// struct OutputGroup: OptionGroup {
///     @Flag("json", short: "j", help: "Print JSON.") var json: Bool
///     @Flag("jsonl", help: "Print JSON lines.") var jsonLines: Bool
///
///     func validate() throws(ValidationError) {
///         if json && jsonLines { throw ValidationError("--json and --jsonl cannot be used together") }
///     }
/// }
///
/// Command("list", abstract: "…", options: OutputGroup.options) { arguments, context in
///     let output = try arguments.group(OutputGroup.self)
///     …
/// }
/// ```
///
/// `options` lists the declarations in property order (a property holding another group adds that
/// group's options where it stands); reading converts and checks every value, then calls
/// `validate()` of the nested groups and of this one. A group's stored properties are its options,
/// flags and nested groups only; anything derived from them is a computed property.
public protocol OptionGroup: Decodable, Sendable {
    /// The group with every option not given: the declarations, read by reflection.
    init()
    /// Checks what no single option can (two options that do not go together); a usage error otherwise.
    func validate() throws(ValidationError)
}

extension OptionGroup {
    /// Nothing to check beyond each option.
    public func validate() throws(ValidationError) {}

    /// The group's options, in the order help shows them.
    public static var options: [OptionDefinition] {
        GroupLayout.definitions(of: Self())
    }

    /// The options of the fields at `paths` (`\.$state`), in the group's order: for a command that takes part of a group.
    public static func options(_ paths: PartialKeyPath<Self>...) -> [OptionDefinition] {
        let group = Self()
        let wanted = Set(paths.flatMap { (group[keyPath: $0] as? any DeclaredField)?.definitions ?? [] })
        return options.filter(wanted.contains)
    }

    /// The group's options but those of the fields at `paths`.
    public static func options(excluding paths: PartialKeyPath<Self>...) -> [OptionDefinition] {
        let group = Self()
        let unwanted = Set(paths.flatMap { (group[keyPath: $0] as? any DeclaredField)?.definitions ?? [] })
        return options.filter { !unwanted.contains($0) }
    }

    /// Reads and checks the group's values from parsed arguments; a usage error naming the option
    /// for a value that does not read or is refused, or the message of `validate()`.
    public init(_ arguments: ParsedArguments) throws(UsageError) {
        let fields = try GroupLayout.read(Self(), from: arguments)
        do {
            self = try Self(from: ParsedFieldDecoder(group: fields))
        } catch {
            preconditionFailure("\(Self.self) holds a stored property that is not an @Option, a @Flag or an OptionGroup: \(error)")
        }
        do {
            try GroupLayout.validate(self)
        } catch {
            throw arguments.usageError(error.message)
        }
    }

    /// Mistakes in the declarations: an option named twice, a default that does not read as its
    /// option's type. Empty when sound; tests call it for every group.
    public static func declarationProblems() -> [String] {
        let command = Command(String(describing: Self.self), abstract: "", options: options) { _, _ in 0 }
        var problems = command.declarationProblems()
        for field in GroupLayout.fields(of: Self()) {
            for definition in field.definitions {
                guard let defaultValue = definition.defaultValue else { continue }
                let arguments = ParsedArguments(commandPath: [command.name], values: [definition.name: [defaultValue]])
                do {
                    _ = try field.readField(from: arguments)
                } catch {
                    problems.append("\(command.name): the default of \(error.message)")
                }
            }
        }
        return problems
    }
}

/// A property of a group that declares options: `@Option` or `@Flag`.
protocol DeclaredField: Sendable {
    /// What help, completion and the parser know of it.
    var definitions: [OptionDefinition] { get }
    /// The field with its value read from parsed arguments.
    func readField(from arguments: ParsedArguments) throws(UsageError) -> any DeclaredField
}
