import FleetErrors

extension ErrorCause {
    /// A route asked between points no road joins for the vehicle's category.
    public static let routeNotFound = ErrorCause(
        id: "ROUTE_NOT_FOUND", code: .notFound,
        summary: "No road route joins the points for this vehicle category",
        remedy: "The points lie on parts of the road network that do not connect for this category (an island, a one-way street leading away, a road closed to this vehicle). Move the point onto a road the vehicle may use, try another vehicle category, or use a map that covers the roads between them; the message names the leg.",
        matchPhrases: ["no road route", "no route between", "route not found"])
    /// A route point farther from every road of the routing map than a vehicle could be.
    public static let pointOffMap = ErrorCause(
        id: "POINT_OFF_MAP", code: .invalidArgument,
        summary: "The point is not near any road of the routing map",
        remedy: "Give a point inside the area the routing map covers (the message names the field and the map), or import a map of that region with `fleet-admin map import FILE.osm.pbf` and route with --router routino:DIR.",
        matchPhrases: ["off the map", "not near any road", "outside the map"])
    /// A routing database that cannot be opened: missing folder, files planetsplitter did not write, wrong version.
    public static let routingMapUnavailable = ErrorCause(
        id: "ROUTING_MAP_UNAVAILABLE", code: .failedPrecondition,
        summary: "The routing map cannot be loaded",
        remedy: "Point routino:DIR at a folder planetsplitter wrote (nodes.mem, segments.mem, ways.mem, relations.mem): run `make map` for the Helsinki sample, or `fleet-admin map import FILE.osm.pbf --into DIR` for your region; check that routino's profiles are installed (/usr/share/routino).",
        matchPhrases: ["routing map", "routing database", "nodes.mem", "planetsplitter"])
    /// An OpenStreetMap extract that planetsplitter could not turn into a routing database.
    public static let mapImportFailed = ErrorCause(
        id: "MAP_IMPORT_FAILED", code: .invalidArgument,
        summary: "The map extract could not be imported",
        remedy: "Give an OpenStreetMap extract in .osm.pbf (or .osm) format, e.g. a city from a Geofabrik or BBBike download, and a folder you may write to; Routino's planetsplitter must be installed (Debian package routino). The message carries planetsplitter's last lines.",
        matchPhrases: ["map extract", "map import", "osm.pbf"])
    /// Routino's command-line tools (planetsplitter) are not installed.
    public static let routingToolsMissing = ErrorCause(
        id: "ROUTING_TOOLS_MISSING", code: .failedPrecondition,
        summary: "Routino's planetsplitter is not installed",
        remedy: "Install Debian's routino package (`apt-get install routino`, or `make setup`), which puts planetsplitter on the PATH.",
        matchPhrases: ["planetsplitter is not installed", "routino package"])
}

/// The error causes FleetRouting reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetRoutingCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .routeNotFound, .pointOffMap, .routingMapUnavailable, .mapImportFailed, .routingToolsMissing,
    ]
}
