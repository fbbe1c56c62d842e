import FleetCLI
import FleetErrors
import FleetGeo
import FleetKit
import FleetModel
import FleetRouting
import Foundation

/// `fleet-admin route`: asks the configured router for a route, as the engine would.
enum RouteCommand {
    /// Map data credit, shown wherever a route on OpenStreetMap data is shown.
    static let attribution = "© OpenStreetMap contributors, ODbL"

    /// The options of `route`.
    struct Flags: OptionGroup {
        @Option("from", valueName: "lat,lng", help: "Where the route starts.", transform: FlagValue.latLng)
        var from: LatLng
        @Option("to", valueName: "lat,lng", help: "Where the route ends.", transform: FlagValue.latLng)
        var to: LatLng
        @Option("via", valueName: "lat,lng", help: "A point to pass on the way; repeat for several, in order.", transform: FlagValue.latLng)
        var vias: [LatLng]
        /// Only the categories' spellings are accepted.
        @Option("category", valueName: "category", help: "The vehicle category: auto, taxi, truck, two-wheeler, bicycle or pedestrian.",
                accepted: Vocabulary.categories, default: "auto", strict: true)
        var category: VehicleType.Category
        var router = RouterFlag()

        init() {}
    }

    /// The command.
    static let command = AdminCommand.make(
        "route", abstract: "Plan a route between points and print its distance, duration and encoded polyline.",
        discussion: "The route goes --from, through each --via in order, --to, for a vehicle of --category (which roads it may use and how fast). With routino:DIR it follows the roads (one-way streets, access and turn restrictions, quickest route); with straight it is a great-circle estimate, marked as such. A point far from every road fails with INVALID_ARGUMENT naming the field (exit 13), points no road joins with NOT_FOUND (exit 15). --json prints distanceMeters, durationSeconds, encodedPolyline, isEstimate and the distance and time to each waypoint.",
        options: Flags.options,
        examples: [
            Example("fleet-admin route --router routino:.build/map --from 60.1699,24.9384 --to 60.1675,24.9480",
                    "A drive across central Helsinki on the sample map (make map)."),
            Example("fleet-admin route --from 60.1699,24.9384 --via 60.1710,24.9440 --to 60.1675,24.9480 --json",
                    "Through a via, as JSON (straight estimate unless FLEET_ROUTER names a map)."),
        ]) { session in
        let flags = try Flags(session.arguments)
        let router = try Wiring.openRouter(flags.router.url, environment: session.context.environment)
        let request = RouteRequest(from: GeoPoint(flags.from), to: GeoPoint(flags.to), via: flags.vias.map(GeoPoint.init),
                                   category: VehicleCategory(rawValue: flags.category.name) ?? .unknown)
        let plan = try router.route(request)
        let report = RouteReport(plan: plan, router: router.url, credit: router.url.hasPrefix("routino:") ? attribution : nil)
        session.printer.value(report.json) { report.block.lines(labelStyle: session.style.dim) }
        return 0
    }
}

/// A planned route as fleet-admin shows it.
struct RouteReport: Sendable {
    let plan: RoutePlan
    let router: String
    /// The map data's attribution, when the route was planned on a map.
    let credit: String?

    /// distanceMeters (whole metres), durationSeconds (tenths), encodedPolyline, isEstimate, router,
    /// waypoints (distance and time from the start to each), attribution.
    var json: JSON {
        var object: JSONObject = [
            "distanceMeters": .number(plan.distanceMeters.rounded()),
            "durationSeconds": .number((plan.durationSeconds * 10).rounded() / 10),
            "encodedPolyline": .string(plan.encodedPolyline),
            "isEstimate": .bool(plan.isEstimate),
            "router": .string(router),
            "waypoints": .array(plan.waypointIndices.indices.map { index in
                let arrival = plan.arrival(atWaypoint: index)
                return .object(["distanceMeters": .number(arrival.meters.rounded()),
                                "durationSeconds": .number((arrival.seconds * 10).rounded() / 10)])
            }),
        ]
        if let credit { object["attribution"] = .string(credit) }
        return .object(object)
    }

    /// Label–value lines for people.
    var block: KeyValueBlock {
        var entries: [(label: String, value: String)] = [
            ("Distance", "\(Int(plan.distanceMeters.rounded())) m"),
            ("Duration", RouteReport.duration(plan.durationSeconds)),
            ("Kind", plan.isEstimate ? "estimate (great circle × detour factor, default speed)" : "road route"),
            ("Router", router),
        ]
        if plan.waypointIndices.count > 2 {
            let legs = plan.waypointIndices.indices.dropFirst().map { index -> String in
                let arrival = plan.arrival(atWaypoint: index)
                let name = index == plan.waypointIndices.count - 1 ? "to" : "via \(index)"
                return "\(name): \(Int(arrival.meters.rounded())) m, \(RouteReport.duration(arrival.seconds))"
            }
            entries.append(("Waypoints", legs.joined(separator: "\n")))
        }
        entries.append(("Polyline", plan.encodedPolyline))
        if let credit { entries.append(("Map data", credit)) }
        return KeyValueBlock(entries)
    }

    /// `4 min 12 s` (`45 s` under a minute, `1 h 2 min` over an hour).
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min \(total % 60) s" }
        return "\(total / 3600) h \(total % 3600 / 60) min"
    }
}

extension GeoPoint {
    init(_ point: LatLng) {
        self.init(latitude: point.latitude, longitude: point.longitude)
    }
}

/// `--router`: where routes come from, declared once for the commands that plan routes (`route`, `serve`).
struct RouterFlag: OptionGroup {
    @Option("router", valueName: "url",
            help: "Where routes come from: straight (great-circle estimates, no map needed) or routino:DIR (road routes on a Routino database: make map builds .build/map; map import builds your own).",
            environment: RouterRegistry.environmentVariable, completion: .values(["straight", "routino:"]))
    var url: String?

    init() {}

    /// The router `--router` (or `FLEET_ROUTER`) names when it plans on roads; a bad URL is a usage error
    /// listing the schemes.
    func planningRouter(_ arguments: ParsedArguments) throws -> (any Router)? {
        do {
            return try Wiring.planningRouter(url, environment: [:])
        } catch {
            throw arguments.usageError("--router: \(error.message)")
        }
    }
}
