extension ParsedArguments {
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
