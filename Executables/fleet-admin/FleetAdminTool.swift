import FleetCLI

/// The `fleet-admin` command tree: global options, then one group or command per concern.
enum FleetAdminTool {
    /// The version `--version` prints.
    static let version = ProductVersion.of("fleet-admin")

    /// The server's commands, declared beside the server (Serve.swift) and joined to the tree here, so that
    /// help, completion scripts and the `declarationProblems()` tests cover them.
    static let serverCommands: [Command] = [serveCommand]

    /// The commands under the root, in the order help lists them.
    static var subcommands: [Command] {
        [VehicleCommands.command, TripCommands.command, DeliveryVehicleCommands.command, TaskCommands.command, TokenCommands.command,
         ExportCommand.command, ImportCommand.command, StatsCommand.command, HistoryCommand.command, RouteCommand.command, MapCommands.command,
         SpeedsCommands.command]
            + ReplayCommand.commands + serverCommands
    }

    /// The root command.
    static func command(subcommands: [Command] = FleetAdminTool.subcommands) -> Command {
        Command(
            "fleet-admin", abstract: "Operate a self-hosted Fleet Engine: vehicles, trips, delivery vehicles and tasks, tokens, export, import, stats, routes and maps.",
            discussion: "Every command talks to the engine through --transport: memory runs the engine in this process over --store (the embedded SQLite store by default, so separate invocations see the same fleet); file:PATH shares a journal file with the other processes of this host; http://HOST:PORT talks to a fleet-admin serve. Output is a table for people, --json for Fleet Engine's JSON, --jsonl for pipes. Failures print the error catalogue's explanation and exit with 10 + the gRPC code (2 for usage errors).",
            version: version,
            options: GlobalOptions.all,
            subcommands: subcommands,
            examples: [
                Example("export FLEET_PROVIDER=demo", "Name the provider once for the commands below."),
                Example("fleet-admin vehicles create car-1 --capacity 4 --state online --location 52.52,13.40", "A vehicle, ready for trips."),
                Example("fleet-admin trips create trip-1 --pickup 52.52,13.40 --dropoff 52.50,13.45 --vehicle car-1", "A trip, assigned."),
                Example("fleet-admin trips status trip-1 enroute-to-pickup", "Move it along."),
                Example("fleet-admin stats", "Counts by state and status, and stale vehicles."),
                Example("source <(fleet-admin --generate-completion-script bash)", "Shell completion (bash; zsh likewise)."),
            ])
    }
}
