import FleetCLI
import FleetModel

extension ParsedArguments {
    /// The value of an enum argument, as its type, or nil when not given; a spelling outside the
    /// accepted values is a usage error naming the argument.
    func value<Value>(_ argument: EnumArgument<Value>) throws(UsageError) -> Value? {
        guard let text = string(argument.argument) else { return nil }
        do {
            return try FlagValue.enumValue(text, accepted: argument.accepted)
        } catch {
            throw usageError(error.report(label: "<\(argument.argument.name)>", text: text, source: source(argument.argument.name)))
        }
    }
}
