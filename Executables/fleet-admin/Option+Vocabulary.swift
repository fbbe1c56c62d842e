import FleetCLI
import FleetModel

/// Options whose value is one of a proto enum's values (or a comma-separated list of them), declared
/// with the values they accept, so `--state` cannot be read as a trip type and a spelling outside
/// `accepted` is a usage error. Operators may type any case, dashes or underscores, or a unique
/// prefix (see `FlagValue.enumValue`), so completion offers the spellings but the parser does not
/// restrict them, unless `strict`.
extension Option {
    /// `--name VALUE`, one of `accepted`; nil when not given.
    init<T: ProtoEnum & Sendable>(_ name: String, valueName: String, help: String, accepted: [T]) where Value == T? {
        self.init(name, valueName: valueName, help: help, completion: .values(FlagValue.spellings(accepted)),
                  transform: { text throws(ArgumentProblem) in try FlagValue.enumValue(text, accepted: accepted) })
    }

    /// `--name VALUE`, one of `accepted`, `default` when not given; `strict` makes the parser accept only their exact spellings.
    init(_ name: String, valueName: String, help: String, accepted: [Value], default defaultValue: String,
         strict: Bool = false) where Value: ProtoEnum {
        let spellings = FlagValue.spellings(accepted)
        self.init(name, valueName: valueName, help: help, default: defaultValue, allowedValues: strict ? spellings : [],
                  completion: strict ? nil : .values(spellings),
                  transform: { text throws(ArgumentProblem) in try FlagValue.enumValue(text, accepted: accepted) })
    }

    /// `--name a,b`: some of `accepted`, without repeats; nil when not given.
    init<T: ProtoEnum & Sendable>(_ name: String, valueName: String, help: String, acceptedList: [T]) where Value == [T]? {
        self.init(name, valueName: valueName, help: help, completion: .values(FlagValue.spellings(acceptedList)),
                  transform: { text throws(ArgumentProblem) in try FlagValue.enumValues(text, accepted: acceptedList) })
    }

    /// `--name a,b`, repeatable: each list given, in order (`FlagValue.union` joins them).
    init<T: ProtoEnum & Sendable>(_ name: String, valueName: String, help: String, acceptedLists: [T]) where Value == [[T]] {
        self.init(name, valueName: valueName, help: help, completion: .values(FlagValue.spellings(acceptedLists)),
                  transform: { text throws(ArgumentProblem) in try FlagValue.enumValues(text, accepted: acceptedLists) })
    }
}
