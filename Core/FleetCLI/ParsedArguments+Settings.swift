import FleetErrors

extension ParsedArguments {
    /// Runs `body`, which checks or reads settings (a URL, an address, a file an option names), and
    /// turns a `FleetError` about one of this command's options into a usage error naming it (exit 2
    /// with a "See … --help" line): a malformed setting is a mistake in the command line, not a
    /// failed call. The error's `field` names the option, with or without its dashes. Other errors
    /// pass through unchanged.
    public func checkingSettings<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as FleetError {
            guard let field = error.field else { throw error }
            let name = field.hasPrefix("--") ? String(field.dropFirst(2)) : field
            guard declares(option: name) else { throw error }
            throw usageError(error.message.hasPrefix("--\(name)") ? error.message : "--\(name): \(error.message)")
        }
    }
}
