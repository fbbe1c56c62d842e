/// What help, completion scripts and the parser know of a command-line option: a flag (`--json`,
/// `-j`) or an option with a value (`--transport URL`, `--transport=URL`), with help, a default and
/// an environment variable.
///
/// Commands declare their options once with `@Option` and `@Flag` in an `OptionGroup`, whose
/// `options` are these definitions; `.flag(...)` and `.value(...)` make one directly, for a program
/// that reads its few options by name (the test helpers). Options of a command are accepted by all
/// its subcommands too, so shared options (`--transport`) are declared once, on the root.
public struct OptionDefinition: Sendable, Hashable {
    /// Whether the option takes a value.
    public enum Kind: Sendable, Hashable {
        /// Present or absent (`--json`).
        case flag
        /// Takes a value (`--interval 5s`).
        case value
    }

    /// The long name, without dashes (`transport` for `--transport`).
    public let name: String
    /// The one-letter name (`j` for `-j`), if any.
    public let short: Character?
    /// Flag or value.
    public let kind: Kind
    /// The value's name in help (`url` shows as `--transport <url>`).
    public let valueName: String
    /// One line (or a few sentences) of help.
    public let help: String
    /// The value when neither the command line nor the environment gives one.
    public let defaultValue: String?
    /// An environment variable read when the command line does not give the option (`FLEET_TRANSPORT`).
    public let environment: String?
    /// Whether the option may be given several times, each value kept (`strings(_:)`).
    public let isRepeatable: Bool
    /// Whether parsing fails when no value comes from the command line, environment or default.
    public let isRequired: Bool
    /// The only values accepted, when not empty (also offered by completion).
    public let allowedValues: [String]
    /// How shells complete the value.
    public let completion: Completion
    /// Whether help and completion leave the option out.
    public let isHidden: Bool

    /// A flag: `--name` (and `-short`). `environment`, when set to 1/true/yes/on or 0/false/no/off,
    /// gives the flag's value when the command line does not.
    public static func flag(_ name: String, short: Character? = nil, help: String,
                            environment: String? = nil, hidden: Bool = false) -> OptionDefinition {
        OptionDefinition(name: name, short: short, kind: .flag, valueName: "", help: help, defaultValue: nil,
               environment: environment, isRepeatable: false, isRequired: false, allowedValues: [],
               completion: .none, isHidden: hidden)
    }

    /// An option with a value: `--name VALUE` or `--name=VALUE` (and `-short VALUE`). The command
    /// line wins over `environment`, which wins over `default`. Given twice, a non-repeatable
    /// option keeps the last value.
    public static func value(_ name: String, short: Character? = nil, valueName: String = "value", help: String,
                             default defaultValue: String? = nil, environment: String? = nil,
                             repeatable: Bool = false, required: Bool = false, allowedValues: [String] = [],
                             completion: Completion? = nil, hidden: Bool = false) -> OptionDefinition {
        OptionDefinition(name: name, short: short, kind: .value, valueName: valueName, help: help,
               defaultValue: defaultValue, environment: environment, isRepeatable: repeatable,
               isRequired: required, allowedValues: allowedValues,
               completion: completion ?? (allowedValues.isEmpty ? .none : .values(allowedValues)),
               isHidden: hidden)
    }

    /// `--name`.
    public var longSpelling: String { "--" + name }
}
