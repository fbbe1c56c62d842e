/// Options declared once and read together into a typed value, for every command that needs them,
/// as swift-argument-parser's `@OptionGroup` does: a command lists `Group.options` among its own,
/// and its handler reads `try arguments.group(Group.self)`, checked by the group in one place.
public protocol OptionGroup: Sendable {
    /// The group's options, in the order help shows them.
    static var options: [OptionDefinition] { get }
    /// Reads and checks the group's values; a usage error naming the option for a bad one.
    init(_ arguments: ParsedArguments) throws(UsageError)
}
