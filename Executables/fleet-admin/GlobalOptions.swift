import FleetCLI
import FleetKit

/// The options every fleet-admin command accepts, declared once on the root command: the shared
/// connection, token and output groups, and `--provider`.
struct GlobalOptions: OptionGroup {
    /// `--provider ID` (`FLEET_PROVIDER`).
    @Option("provider", valueName: "id",
            help: "The provider (Cloud project) ID. Needed by every command that names vehicles, trips or tasks; a full name like providers/P/vehicles/V also gives it.",
            environment: "FLEET_PROVIDER")
    var provider: String?

    /// No option given.
    init() {}

    /// `--transport`, `--store`, `--provider`, `--token`, `--token-file`, `--json`, `--jsonl`, `--no-color`.
    static let all: [OptionDefinition] = ConnectionGroup.options + options + TokenGroup.fixedOptions + OutputGroup.options
}
