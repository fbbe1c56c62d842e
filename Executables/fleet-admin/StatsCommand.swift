import FleetCLI
import FleetModel
import FleetOperator
import Foundation

/// `fleet-admin stats`: counts of a provider's vehicles and trips.
enum StatsCommand {
    /// The options of `stats`.
    struct Flags: OptionGroup {
        @Option("stale-after", valueName: "duration", help: "How old a location may be before its vehicle counts as stale.", default: "5m")
        var staleAfter: Duration

        init() {}
    }

    /// The command.
    static let command = AdminCommand.make(
        "stats", abstract: "Count vehicles by state and category, trips by status, and stale vehicles.",
        discussion: "A vehicle is stale when it is ONLINE and has no location received within --stale-after (Fleet Engine's SearchVehicles default: 5m): searches will not find it.",
        options: Flags.options,
        examples: [
            Example("fleet-admin --provider demo stats", "The fleet at a glance."),
            Example("fleet-admin --provider demo stats --json | jq .vehicles.stale", "The stale vehicles, as JSON."),
        ]) { session in
        let parent = try session.parent()
        let seconds = try Flags(session.arguments).staleAfter.seconds
        var statistics = FleetStatistics(now: Date().timeIntervalSince1970, staleAfter: seconds)
        try session.withAPI { api in
            let vehicles = ListVehiclesRequest(parent: parent, pageSize: 500, vehicleTypeCategories: Vocabulary.categories)
            try FleetPager(api: api, progress: session.progress("Counting vehicles")).vehicles(vehicles) { page in
                for vehicle in page { statistics.add(vehicle) }
            }
            try FleetPager(api: api, progress: session.progress("Counting trips")).trips(SearchTripsRequest(parent: parent, pageSize: 500)) { page in
                for trip in page { statistics.add(trip) }
            }
        }
        session.printer.value(statistics.json) { statistics.lines(style: session.style) }
        return 0
    }
}
