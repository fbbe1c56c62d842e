import FleetCLI
import FleetKit

/// The options every fleet-admin command accepts, declared once on the root command: the shared
/// connection, token and output groups, and `--provider`.
enum GlobalOptions {
    /// `--provider ID` (`FLEET_PROVIDER`).
    static let provider = OptionDefinition.value(
        "provider", valueName: "id",
        help: "The provider (Cloud project) ID. Needed by every command that names vehicles, trips or tasks; a full name like providers/P/vehicles/V also gives it.",
        environment: "FLEET_PROVIDER")

    /// `--transport`, `--store`, `--provider`, `--token`, `--token-file`, `--json`, `--jsonl`, `--no-color`.
    static let all: [OptionDefinition] = ConnectionGroup.options + [provider] + TokenGroup.fixedOptions + OutputGroup.options
}
