import FleetCLI
import FleetModel

/// An option whose value is one of a proto enum's values (or a comma-separated list of them), declared
/// with the values it accepts: reading it (`ParsedArguments.value(_:)`, `values(_:)`) gives that enum's
/// type, so `--state` cannot be read as a trip type, and a spelling outside `accepted` is a usage error.
/// Operators may type any case, dashes or underscores, or a unique prefix (see `FlagValue.enumValue`),
/// so completion offers the spellings but the parser does not restrict them, unless `strict`.
struct EnumOption<Value: ProtoEnum>: Sendable {
    /// The option as the command declares it.
    let option: OptionDefinition
    /// The values it accepts, in the order help and completion show them.
    let accepted: [Value]

    /// `--name VALUE`, accepting `accepted`; `strict` makes the parser accept only their exact spellings.
    init(_ name: String, valueName: String, help: String, accepted: [Value], default defaultValue: String? = nil,
         repeatable: Bool = false, strict: Bool = false) {
        let spellings = FlagValue.spellings(accepted)
        option = .value(name, valueName: valueName, help: help, default: defaultValue, repeatable: repeatable,
                        allowedValues: strict ? spellings : [], completion: strict ? nil : .values(spellings))
        self.accepted = accepted
    }
}

/// A positional argument whose value is one of a proto enum's values, read as that type.
struct EnumArgument<Value: ProtoEnum>: Sendable {
    /// The argument as the command declares it.
    let argument: Argument
    /// The values it accepts.
    let accepted: [Value]

    /// `<name>`, accepting `accepted` (completion offers their spellings).
    init(_ name: String, help: String, accepted: [Value]) {
        argument = Argument(name, help: help, completion: .values(FlagValue.spellings(accepted)))
        self.accepted = accepted
    }
}
