import FleetCLI
import FleetModel

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
