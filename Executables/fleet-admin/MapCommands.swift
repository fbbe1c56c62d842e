import FleetCLI
import FleetErrors
import FleetKit
import FleetModel
import Foundation
import RoutinoRouter

/// `fleet-admin map import`: routing maps for `--router routino:DIR`.
enum MapCommands {
    /// The `map` group.
    static let command = Command(
        "map", abstract: "Build routing maps from OpenStreetMap extracts.",
        subcommands: [importMap])

    /// Where `map import` writes when `--into` is not given: `map` in the data folder.
    static func defaultFolder(_ session: AdminSession) -> String {
        Wiring.dataDirectory(environment: session.context.environment) + "/map"
    }

    /// The options of `map import`.
    struct ImportFlags: OptionGroup {
        @Option("into", valueName: "dir",
                help: "The folder for the database. Default: map in $FLEET_DATA_DIR, else $XDG_DATA_HOME/fleet-engine, else ~/.local/share/fleet-engine.",
                completion: .directories)
        var folder: String?

        init() {}
    }
    /// `<file>`.
    static let extractArgument = Argument("file", help: "The OpenStreetMap extract (.osm.pbf, .osm, .o5m).", completion: .files)

    /// `map import`.
    static let importMap = AdminCommand.make(
        "import", abstract: "Build a Routino routing database from an OpenStreetMap extract (runs planetsplitter).",
        discussion: "FILE is an extract of your region in .osm.pbf (or .osm, .o5m) format: Geofabrik (download.geofabrik.de) has countries and regions, BBBike (extract.bbbike.org) cuts a city or any rectangle. The database (nodes.mem, segments.mem, ways.mem, relations.mem, memory-mapped and shared between processes) goes into --into, replacing what is there; then route with --router routino:DIR. planetsplitter's log is kept as DIR/planetsplitter.log. A file planetsplitter cannot read fails with INVALID_ARGUMENT (exit 13); without Routino's tools (Debian package routino) FAILED_PRECONDITION (exit 19). Map data from OpenStreetMap is © OpenStreetMap contributors, ODbL: credit it wherever routes or maps are shown.",
        options: ImportFlags.options,
        arguments: [extractArgument],
        examples: [
            Example("fleet-admin map import berlin-latest.osm.pbf --into /var/lib/fleet/map", "A city from Geofabrik."),
            Example("fleet-admin route --router routino:/var/lib/fleet/map --from 52.52,13.40 --to 52.50,13.45",
                    "Then route on it."),
        ]) { session in
        let file = try session.arguments.require(extractArgument)
        let folder = try ImportFlags(session.arguments).folder ?? defaultFolder(session)
        let summary = try RoutinoMapImport.run(file: file, into: folder, environment: session.context.environment)
        let json: JSON = .object([
            "directory": .string(summary.directory),
            "router": .string("routino:" + summary.directory),
            "databaseBytes": .number(Double(summary.databaseBytes)),
            "seconds": .number((summary.seconds * 100).rounded() / 100),
        ])
        session.printer.value(json) {
            KeyValueBlock([
                ("Database", summary.directory),
                ("Size", "\(summary.databaseBytes / 1024) KiB"),
                ("Took", String(format: "%.2f s", summary.seconds)),
                ("Route with", "--router routino:\(summary.directory)"),
                ("Map data", RouteCommand.attribution),
            ]).lines(labelStyle: session.style.dim)
        }
        return 0
    }
}
