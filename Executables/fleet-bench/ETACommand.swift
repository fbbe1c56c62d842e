import FleetCLI
import FleetErrors
import FleetEvaluation
import FleetGeo
import FleetKit
import FleetOperator
import FleetRouting
import Foundation
import Synchronization

/// `fleet-bench eta`: how accurate the engine's ETAs are on recorded drives. The replay and the figures live in
/// FleetEvaluation; this reads the file, runs it and prints.
enum ETACommand {
    static let command = Command(
                "eta",
                abstract: "Measure ETA accuracy by replaying recorded drives through the engine's estimator.",
                discussion: """
                    Each drive is replayed as a trip to its last position, along its own path (what the driver's \
                    navigation knew): at every reported position the engine's estimate of the time left is set \
                    beside the time the vehicle really took. Prints the median and 90th-percentile absolute error \
                    in percent of the real remaining time, overall and by remaining time, beside two baselines: \
                    the straight-line estimate the engine makes without a route, and the route at the category's \
                    default speed; once as driven and once with the waits (intervals averaging under 1 m/s) cut out. \
                    The trace file is CSV with the header trip_id,timestamp,latitude,longitude.
                    """,
                options: [
                    .value("traces", valueName: "file.csv", help: "The recorded drives (CSV: trip_id,timestamp,latitude,longitude).",
                           completion: .files),
                    .value("simulated", valueName: "count", help: "Judge this many simulated town drives (lights, queues, GPS noise) instead of, or beside, --traces."),
                    .value("seed", valueName: "n", help: "Seed of the simulated drives.", default: "1"),
                    .value("town", valueName: "count", help: "Learn from this many drives through a simulated town (streets with their own speeds, rush hours, lights and stops), then judge a fifth as many other drives through it, with and without what was learned."),
                    .value("history", valueName: "file.csv", help: "Learn travel times from these drives (same CSV form) and judge the learned estimate on --traces; today's estimator, the plain history baseline and the hindsight bound stay beside it.",
                           completion: .files),
                    .flag("cross-validate", help: "Judge each drive of --traces with the learned estimate learned from the others (and from --history, if given): leave one out, once per drive."),
                    .value("category", valueName: "category", help: "Vehicle category, for the default speed.",
                           default: "AUTO", allowedValues: VehicleCategory.allCases.map(\.rawValue)),
                    .value("minimum-average-kmh", valueName: "kmh",
                           help: "Leave out drives averaging less than this, stops included (walks in a mixed set).", default: "0"),
                    .value("router", valueName: "url", help: "Plan each drive's route from its first to its last position with this router (routino:DIR, straight) instead of following the drive's own path; a drive the router cannot route keeps its own path.",
                           environment: "FLEET_ROUTER"),
                    .value("points", valueName: "file.csv", help: "Also write every replayed point as driven to this CSV (drive, real and predicted seconds left, seconds watched, learned seconds over the path driven, …), for a look at where the error sits.",
                           completion: .files),
                    .flag("json", help: #"Print {"drives":N,"medianErrorPercent":X,"p90ErrorPercent":Y,…} for points more than 2 minutes out."#),
                ],
                examples: [
                    Example("fleet-bench eta --traces ../shared/data/traces/liverpool-route14-half.csv", "Bus drives in Liverpool."),
                    Example("fleet-bench eta --traces .build/traces/mopsi.csv --minimum-average-kmh 20 --json", "The car drives of the mopsi set."),
                    Example("fleet-bench eta --simulated 200", "Simulated town drives."),
                    Example("fleet-bench eta --traces test.csv --history past.csv --json", "The learned estimate on drives it never saw."),
                    Example("fleet-bench eta --traces ../shared/data/traces/liverpool-route14-half.csv --cross-validate", "Learn from all drives but one, judge that one, for each drive."),
                ],
                handler: { arguments, context in try run(arguments, context) })

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        let tracesPath = arguments.string("traces")
        let simulated = try arguments.int("simulated") ?? 0
        let town = try arguments.int("town") ?? 0
        guard tracesPath != nil || simulated > 0 || town > 0 else {
            throw context.usageError("give --traces FILE.csv, --simulated COUNT or --town COUNT")
        }
        guard town >= 0 else { throw context.usageError("--town must be 0 or more") }
        guard simulated >= 0 else { throw context.usageError("--simulated must be 0 or more") }
        guard let seed = UInt64(arguments.string("seed") ?? "1") else { throw context.usageError("--seed must be a whole number from 0") }
        let minimumKmh = try arguments.double("minimum-average-kmh") ?? 0
        guard minimumKmh >= 0 else { throw context.usageError("--minimum-average-kmh must be 0 or more") }
        let category = VehicleCategory(rawValue: arguments.string("category") ?? "AUTO") ?? .auto

        var drives: [Drive] = []
        if let tracesPath { drives += try readTraces(tracesPath, field: "traces") }
        if simulated > 0 { drives += SimulatedDrives().drives(count: simulated, seed: seed) }

        var historyDrives: [Drive] = []
        if let historyPath = arguments.string("history") {
            historyDrives = try readTraces(historyPath, field: "history")
        }
        if town > 0 {
            let simulatedTown = SimulatedTown(townSeed: seed)
            historyDrives += simulatedTown.drives(count: town, seed: seed &+ 1)
            drives += simulatedTown.drives(count: max(10, town / 5), seed: seed &+ 2)
        }
        // A drive judged with itself in the history is no longer one the estimate never saw: say so (the figures
        // are still printed, for whoever means it).
        let learnedFrom = Set(historyDrives.map(\.fixes))
        let seen = drives.count { learnedFrom.contains($0.fixes) }
        if seen > 0 {
            context.printError("fleet-bench eta: \(seen) of \(drives.count) drives of --traces are also in --history, so the learned figures are not on drives it never saw; give drives of other days, or --cross-validate with --traces alone")
        }
        let crossValidate = arguments.flag("cross-validate")
        guard !crossValidate || drives.count >= 2 else {
            throw context.usageError("--cross-validate needs at least two drives in --traces")
        }

        let evaluation = ETAEvaluation(replay: ETAReplay(category: category), minimumAverageMetersPerSecond: minimumKmh / 3.6)
        var route: (Drive) -> [GeoPoint] = { $0.path }
        var routerNote: (() -> String)? = nil
        if let url = arguments.string("router") {
            let router: any Router
            do { router = try Wiring.routers.openRouter(url) } catch { throw context.usageError("--router: \(error.message)") }
            let unrouted = Mutex(0)
            route = { drive in
                let request = RouteRequest(from: drive.path[0], to: drive.path[drive.path.count - 1], category: category)
                guard drive.path.count >= 2, let plan = try? router.route(request) else {
                    unrouted.withLock { $0 += 1 }
                    return drive.path
                }
                return plan.points
            }
            routerNote = { "fleet-bench eta: routes from \(router.url); \(unrouted.withLock { $0 }) of \(drives.count) drives had no route and kept their own path" }
        }
        let report: (asDriven: AccuracyReport, withoutWaits: AccuracyReport)
        if crossValidate {
            report = evaluation.crossValidate(drives, history: historyDrives, route: route)
        } else if !historyDrives.isEmpty {
            report = evaluation.evaluate(drives, history: historyDrives, route: route)
        } else {
            report = evaluation.evaluate(drives, route: route)
        }
        if let routerNote { context.printError(routerNote()) }
        if let pointsPath = arguments.string("points") {
            try writePoints(report.asDriven.replays, to: pointsPath)
        }
        if arguments.flag("json") {
            context.print("{\(report.asDriven.jsonMembers),\"withoutWaits\":{\(report.withoutWaits.jsonMembers)}}")
        } else {
            context.print(report.asDriven.table(title: "ETA error as driven"))
            context.print(report.withoutWaits.table(title: "ETA error with the waits cut out"), terminator: "")
        }
        return ExitCode.success.rawValue
    }

    /// Every replayed point as a CSV row, drive by drive, with a header.
    static func writePoints(_ replays: [[ReplayPoint]], to path: String) throws {
        func text(_ value: Double?) -> String { value.map { String($0) } ?? "" }
        var lines = ["drive,actual_seconds,learned_seconds,estimated_seconds,plain_history_seconds,watched_seconds,learned_driven_seconds,learned_waits_ahead_seconds,stood_seconds,standing,travelled_meters,route_meters"]
        for (drive, points) in replays.enumerated() {
            for point in points {
                lines.append([String(drive), text(point.actualSeconds), text(point.learnedSeconds), text(point.estimatedSeconds),
                              text(point.plainHistorySeconds), text(point.watchedSeconds), text(point.learnedDrivenSeconds),
                              text(point.learnedWaitsAheadSeconds), text(point.stoodSeconds), point.isStanding ? "1" : "0",
                              text(point.travelledMeters), text(point.routeMeters)].joined(separator: ","))
            }
        }
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw FleetError(.unwritableOutput, detail: "\(path) cannot be written: \(error.localizedDescription)", field: "points")
        }
    }

    /// The drives in a trace file; a file that cannot be read or parsed is MALFORMED_TRACE_FILE naming the option.
    static func readTraces(_ path: String, field: String) throws -> [Drive] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FleetError(.malformedTraceFile, detail: "\(path): cannot be read: \(error.localizedDescription)", field: field)
        }
        return try TraceFile.drives(from: text, source: path)
    }
}

/// The ETA rows of the benchmark table: median and p90 error beyond two minutes on the mopsi car drives
/// (`make traces`, skipped when not fetched) and on simulated drives, against both baselines.
enum ETABenchmarks {
    static func run(tracesPath: String = ".build/traces/mopsi.csv") -> [BenchmarkRow] {
        var sets: [(String, [Drive], Double)] = []
        if let text = try? String(contentsOfFile: tracesPath, encoding: .utf8),
           let drives = try? TraceFile.drives(from: text, source: tracesPath) {
            sets.append(("mopsi car drives", drives, 20 / 3.6))
        }
        sets.append(("100 simulated town drives", SimulatedDrives().drives(count: 100, seed: 1), 0))
        return sets.map { name, drives, minimum in
            let report = ETAEvaluation(minimumAverageMetersPerSecond: minimum).evaluate(drives).asDriven
            func text(_ predictor: Predictor) -> String {
                let figures = report.beyondTwoMinutes[predictor] ?? ErrorFigures(errors: [])
                return "\(figures.medianPercent.map { "\(Int($0.rounded()))" } ?? "–")/\(figures.p90Percent.map { "\(Int($0.rounded()))" } ?? "–")%"
            }
            let rowName = "ETA error > 2 min, median/p90: \(name) (\(report.drives))"
            let comparison = "straight line \(text(.straightLine)), default speed \(text(.defaultSpeed)); aim ≤ 10/25%"
            let estimator = report.beyondTwoMinutes[.estimator] ?? ErrorFigures(errors: [])
            let figures = [(estimator.medianPercent, "median"), (estimator.p90Percent, "p90")].compactMap { percent, statistic in
                percent.map { Figure(value: $0, unit: .percent, decimals: 0, statistic: statistic) }
            }
            return figures.first.map { BenchmarkRow(name: rowName, value: $0, also: Array(figures.dropFirst()), comparison: comparison) }
                ?? BenchmarkRow(name: rowName, failed: "no point more than 2 minutes out; " + comparison)
        }
    }
}
