extension ParsedArguments {
    /// The value of a declared option (the last one, when given several times), or nil. Reading by the
    /// declaration rather than by a name typed again means a misspelt name cannot compile.
    public func string(_ option: OptionDefinition) -> String? { string(option.name) }

    /// Every value of a declared repeatable option, in order.
    public func strings(_ option: OptionDefinition) -> [String] { strings(option.name) }

    /// Whether a declared flag is set.
    public func flag(_ option: OptionDefinition) -> Bool { flag(option.name) }

    /// Whether a declared option was given on the command line or by its environment variable.
    public func isGiven(_ option: OptionDefinition) -> Bool { isGiven(option.name) }

    /// Where the value of a declared option came from, or nil when it has none.
    public func source(_ option: OptionDefinition) -> Source? { source(option.name) }

    /// The value of a declared option; a usage error when it has none.
    public func require(_ option: OptionDefinition) throws(UsageError) -> String { try require(option.name) }

    /// A declared option's value as an integer, or nil when absent; a usage error when it is not one.
    public func int(_ option: OptionDefinition) throws(UsageError) -> Int? { try int(option.name) }

    /// A declared option's value as a finite number, or nil when absent; a usage error when it is not one.
    public func double(_ option: OptionDefinition) throws(UsageError) -> Double? { try double(option.name) }

    /// A declared option's value as a duration, or nil when absent; a usage error when it is not one.
    public func duration(_ option: OptionDefinition) throws(UsageError) -> Duration? { try duration(option.name) }

    /// The value of an option declared with `OptionDefinition.choice`, as its type; nil when absent. The parser
    /// has already refused any other spelling, so this cannot fail.
    public func value<Value: OptionValue>(_ option: OptionDefinition, as type: Value.Type = Value.self) -> Value? {
        string(option).flatMap(Value.init(rawValue:))
    }

    /// Reads an option group from these arguments.
    public func group<Group: OptionGroup>(_ type: Group.Type = Group.self) throws(UsageError) -> Group {
        try Group(self)
    }
}

extension ParsedArguments {
    /// The value of a declared positional argument, or nil.
    public func string(_ argument: Argument) -> String? { string(argument.name) }

    /// Every value of a declared variadic argument, in order.
    public func strings(_ argument: Argument) -> [String] { strings(argument.name) }

    /// The value of a declared positional argument; a usage error when it has none.
    public func require(_ argument: Argument) throws(UsageError) -> String { try require(argument.name) }
}
