import FleetCLI

/// The options every fleet-admin command accepts, declared once on the root command.
enum GlobalOptions {
    /// `--transport`, `--store`, `--provider`, `--token`, `--token-file`, `--json`, `--jsonl`, `--no-color`.
    static let all: [Option] = [
        .value("transport", valueName: "url",
               help: "Where the engine runs: memory (in this process, over --store), file:PATH (a journal file shared by the processes of this host) or http://HOST:PORT (a fleet-admin serve).",
               default: "memory", environment: "FLEET_TRANSPORT"),
        .value("store", valueName: "url",
               help: "The store of the in-process engine: memory, file:PATH or sqlite:PATH. Default: the embedded SQLite store in $FLEET_DATA_DIR, else $XDG_DATA_HOME/fleet-engine, else ~/.local/share/fleet-engine, so separate invocations see the same fleet.",
               environment: "FLEET_STORE", completion: .files),
        .value("provider", valueName: "id",
               help: "The provider (Cloud project) ID. Needed by every command that names vehicles or trips; a full name like providers/P/vehicles/V also gives it.",
               environment: "FLEET_PROVIDER"),
        .value("token", valueName: "jwt", help: "The bearer token sent to an http transport.", environment: "FLEET_TOKEN"),
        .value("token-file", valueName: "path",
               help: "A file holding the bearer token, read on every call (so a helper may refresh it).",
               environment: "FLEET_TOKEN_FILE", completion: .files),
        .flag("json", help: "Print Fleet Engine's JSON: one object, or a JSON array for lists."),
        .flag("jsonl", help: "Print one compact JSON object per line (for pipes and jq)."),
        .flag("no-color", help: "Never colour the output (colour is used only on a terminal, and never with NO_COLOR set)."),
    ]
}
