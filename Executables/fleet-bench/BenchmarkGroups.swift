import FleetCLI
import FleetErrors
import Foundation
import SQLiteStore

/// A group of `fleet-bench`, declared once: its command (name, help, options, arguments), whether
/// `make bench` runs it, and how it makes its `Benchmark`.
struct BenchmarkGroup: Sendable {
    let name: String
    let abstract: String
    var options: [OptionDefinition] = []
    var arguments: [Argument] = []
    /// Whether `fleet-bench` without a group (`make bench`) runs it.
    let inFullRun: Bool
    /// The benchmark as `make bench` runs it.
    let standard: @Sendable () -> any Benchmark
    /// The benchmark as `fleet-bench NAME …` asks for it; nil when the group takes nothing but `--json`.
    var configured: (@Sendable (ParsedArguments, Context) throws -> any Benchmark)?

    /// `fleet-bench NAME [--json] …`.
    var command: Command {
        Command(name, abstract: abstract, options: options + OutputFlags.options, arguments: arguments) { [self] arguments, context in
            let benchmark: any Benchmark
            do {
                benchmark = try configured?(arguments, context) ?? standard()
            } catch let unavailable as GroupUnavailable {
                context.printError("fleet-bench \(name): skipped: \(unavailable.reason)")
                return ExitCode.usage.rawValue
            }
            return BenchmarkRunner(context: context, json: try OutputFlags(arguments).json).run([benchmark])
        }
    }
}

/// A group that cannot run on this machine at all (`fleet-bench nodes` without root): named alone, it
/// says why and exits 2; in `make bench` its row says "skipped".
struct GroupUnavailable: Error {
    let reason: String
}

/// `--json`, on every group.
struct OutputFlags: OptionGroup {
    @Flag("json", help: #"Print one JSON line instead of the table: {"group":…,"rows":[{"name":…,"value":…,"unit":…},…]}, figures as numbers."#)
    var json: Bool
}

/// The `fleet-bench` command: every group, and `fleet-bench` alone for all of `make bench`'s.
enum FleetBench {
    static var command: Command {
        Command(
            "fleet-bench", abstract: "Benchmarks of the Fleet Engine for Linux: one group, or every group of make bench in one table.",
            discussion: "Without a group, runs every group make bench runs (all but search, http-router and http-pairs) and prints one table under the machine's description (CPU, cores, kernel, load average, CPU time stolen by the hypervisor). Ratios are against baselines measured in the same run. A group named alone prints its own section; with --json, one JSON line with its rows as numbers and units. Exits 1 when a row failed.",
            version: ProductVersion.of("fleet-bench"),
            subcommands: groups.map(\.command) + [ETACommand.command],
            examples: [
                Example("fleet-bench", "Every group of make bench (a release build: swift build -c release)."),
                Example("fleet-bench store --json", "The store rows as one JSON line."),
                Example("fleet-bench engine \"sqlite, durable\"", "Only the engine's update rows over durable SQLite."),
                Example("fleet-bench deliveries short", "One small round of the Deliveries calls, to see that the group works."),
            ],
            handler: { _, context in
                BenchmarkRunner(context: context, json: false).run(groups.filter(\.inFullRun).map { $0.standard() })
            })
    }

    /// A usage error for a first word that names no group (the parser would only suggest the nearest),
    /// listing the groups; nil when the line starts with a group or an option.
    static func unknownGroup(in arguments: [String]) -> UsageError? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = command.subcommands.map(\.name)
        guard !names.contains(first) else { return nil }
        let hint = Suggestion.nearest(to: first, among: names).map { "; did you mean '\($0)'?" } ?? ""
        return UsageError("unknown group '\(first)'\(hint)\nThe groups: \(names.joined(separator: ", ")).", commandPath: ["fleet-bench"])
    }

    /// The groups, in the order `make bench` runs them and help lists them.
    static let groups: [BenchmarkGroup] = [
        BenchmarkGroup(name: "geo", abstract: "Route progress: matching a location update onto routes of 100 to 100k points, the per-update ETA path, the polyline codec, and what learned ETAs with live traffic add to the engine's whole UpdateVehicle.",
                       inFullRun: true, standard: { MeasuringBenchmark(name: "geo", title: "route progress", measure: { GeoBenchmarks.run() + EngineETABenchmarks.run() }) }),
        BenchmarkGroup(name: "eta-rows", abstract: "ETA error beyond two minutes on the mopsi car drives (make traces) and simulated drives, against two baselines.",
                       inFullRun: true, standard: { MeasuringBenchmark(name: "eta-rows", title: "ETA accuracy (fleet-bench eta)", measure: { ETABenchmarks.run() }) }),
        BenchmarkGroup(name: "route", abstract: "Route plans on the Helsinki map (make map) with Routino against the straight estimate, and SearchVehicles with road ETAs.",
                       inFullRun: true, standard: { MeasuringBenchmark(name: "route", title: "route plans (Helsinki map)", measure: RouteBenchmarks.run) }),
        BenchmarkGroup(name: "store", abstract: "Commits per second of the memory, SQLite and file stores against raw SQLite in one transaction.",
                       inFullRun: true, standard: {
                           FolderBenchmark(name: "store", title: "stores") { StoreBenchmarks.run(tempDirectory: $0) + FileStoreBenchmarks.run(tempDirectory: $0) }
                       }),
        BenchmarkGroup(name: "engine", abstract: "Engine location updates per second over each store, and SearchVehicles latency in fleets of 10k and 100k.",
                       arguments: [engineStore],
                       inFullRun: true, standard: { engine(only: nil) }, configured: { arguments, _ in engine(only: arguments.string(engineStore)) }),
        BenchmarkGroup(name: "history", abstract: "Durable location updates with the position history on against off, over SQLite and PostgreSQL: in the engine, as UpdateVehicle over REST, and what PostgreSQL alone charges for a point.",
                       inFullRun: true, standard: { FolderBenchmark(name: "history", title: "position history", measure: HistoryBenchmarks.run) }),
        BenchmarkGroup(name: "search", abstract: "SearchVehicles latency in a fleet of 100k vehicles on SQLite (only when named).",
                       inFullRun: false, standard: { FolderBenchmark(name: "search", title: "search", measure: search) }),
        BenchmarkGroup(name: "http", abstract: "fleet-admin serve under wrk against nginx's fixed body on the same machine (wrk and nginx needed).",
                       inFullRun: true, standard: { MeasuringBenchmark(name: "http", title: "HTTP (wrk)", measure: { HTTPBenchmarks.run() }) }),
        BenchmarkGroup(name: "http-router", abstract: "UpdateVehicle of vehicles with their own routes, with and without --router routino (only when named).",
                       inFullRun: false, standard: {
                           MeasuringBenchmark(name: "http-router", title: "UpdateVehicle with a router (wrk)", measure: HTTPBenchmarks.ownRoutes)
                       }),
        BenchmarkGroup(name: "http-pairs", abstract: "GetTrip and UpdateVehicle against nginx in nine rounds, their median ratios (only when named).",
                       inFullRun: false, standard: {
                           MeasuringBenchmark(name: "http-pairs", title: "GetTrip and UpdateVehicle against nginx, in rounds", measure: { HTTPBenchmarks.pairs() })
                       }),
        BenchmarkGroup(name: "grpc", abstract: "GetTrip and UpdateVehicle over gRPC beside REST on one server under h2load, in alternated rounds.",
                       inFullRun: true, standard: { MeasuringBenchmark(name: "grpc", title: "gRPC beside REST (h2load)", measure: GRPCBenchmarks.run) }),
        BenchmarkGroup(name: "deliveries", abstract: "Server CPU per call of GetTaskTrackingInfo and UpdateDeliveryVehicle against GetTrip and UpdateVehicle (h2load).",
                       arguments: [shortPlan], inFullRun: true, standard: { deliveries(.full) },
                       configured: { arguments, context in deliveries(try isShort(arguments, context) ? .short : .full) }),
        BenchmarkGroup(name: "postgres", abstract: "The PostgreSQL store against raw PostgreSQL, one and two nodes, and the durable SQLite writers against their ceilings.",
                       arguments: [shortPlan], inFullRun: true, standard: { postgres(short: false) },
                       configured: { arguments, context in postgres(short: try isShort(arguments, context)) }),
        BenchmarkGroup(name: "failover", abstract: "A PostgreSQL failover (Patroni, synchronous standby) under write load through two nodes: a crash, then a switchover.",
                       options: FailoverBenchmark.Flags.options,
                       inFullRun: true, standard: { FailoverBenchmark() }, configured: { try FailoverBenchmark($0, $1) }),
        BenchmarkGroup(name: "nodes", abstract: "GetTrip and UpdateVehicle through 1, 2 and 4 nodes on one PostgreSQL, each a network namespace and CPU quota of its own (root).",
                       options: NodesBenchmark.Flags.options, inFullRun: true, standard: { NodesBenchmark() }, configured: { try NodesBenchmark($0, $1) }),
        BenchmarkGroup(name: "watch", abstract: "The time from UpdateVehicle to the :watch event with 1,000 streams open, one trip each and all on one trip.",
                       inFullRun: true, standard: { MeasuringBenchmark(name: "watch", title: "watch streams", measure: WatchBenchmarks.run) }),
        BenchmarkGroup(name: "map", abstract: "The rider's map page in headless Chromium: update to marker moved with 10 pages open, page weight, first render.",
                       inFullRun: true, standard: { MeasuringBenchmark(name: "map", title: "map pages (headless Chromium)", measure: MapBenchmarks.run) }),
        BenchmarkGroup(name: "soak", abstract: "Mixed load for a while under each allocator setting: the server's memory, open files and threads (180 s; 20 s in make bench).",
                       options: SoakBenchmark.Flags.options,
                       inFullRun: true, standard: { SoakBenchmark(seconds: 20, watchBatch: SoakBenchmarks.defaultWatchBatch, settings: SoakBenchmarks.AllocatorSetting.short) },
                       configured: { try SoakBenchmark($0, $1) }),
    ]

    // MARK: What the groups above run

    /// `fleet-bench engine STORE`.
    static let engineStore = Argument("store", help: #"Only the update rows of the stores whose name contains this ("sqlite, durable", "memory"), without the search rows."#,
                                      arity: .optional)

    /// `short` after `deliveries` and `postgres`.
    static let shortPlan = Argument("plan", help: "short: one small round (deliveries) or 1-second loads (postgres), to see that the group works.",
                                    arity: .optional, completion: .values(["short"]))

    static func isShort(_ arguments: ParsedArguments, _ context: Context) throws(UsageError) -> Bool {
        switch arguments.string(shortPlan) {
        case nil: return false
        case "short": return true
        case let other?: throw context.usageError("<plan>: '\(other)' is not short (the only plan it takes)")
        }
    }

    static func engine(only: String?) -> any Benchmark {
        FolderBenchmark(name: "engine", title: "engine") { folder in
            let base = try? StoreBenchmarks.rawBatchedUpserts(path: "\(folder)/engine-baseline.sqlite")
            let baseline = base.map { BenchmarkRow(name: "raw SQLite upserts, one transaction (baseline)", value: .perSecond($0), comparison: "100%") }
                ?? BenchmarkRow(name: "raw SQLite upserts, one transaction (baseline)", failed: "the raw upserts did not run")
            return [baseline] + EngineBenchmarks.run(tempDirectory: "\(folder)/engine", baseline: base, only: only)
        }
    }

    static func search(folder: String) -> [BenchmarkRow] {
        do {
            let store = try SQLiteStore(path: "\(folder)/search.db", options: .init(durable: false))
            defer { try? store.close() }
            return try EngineBenchmarks.searchLatency(store: store, vehicles: 100_000)
        } catch {
            return [BenchmarkRow(name: "SearchVehicles, 100k vehicles", failed: "\(error)")]
        }
    }

    static func deliveries(_ plan: DeliveryBenchmarks.Plan) -> any Benchmark {
        MeasuringBenchmark(name: "deliveries", title: "Deliveries against rides, server CPU per call (h2load, memory store)") { DeliveryBenchmarks.run(plan: plan) }
    }

    static func postgres(short: Bool) -> any Benchmark {
        FolderBenchmark(name: "postgres", title: "PostgreSQL (a throwaway cluster, fsync and synchronous commit on)") {
            PostgresBenchmarks.run(tempDirectory: $0, short: short)
        }
    }
}

/// A group whose measuring code starts and stops what it needs itself (servers, clusters, a browser).
struct MeasuringBenchmark: Benchmark {
    let name: String
    let title: String
    let measure: () -> [BenchmarkRow]

    mutating func run() -> [BenchmarkRow] { measure() }
}

/// A group that measures in a folder of its own, made by its set-up and removed by its tear-down.
struct FolderBenchmark: Benchmark {
    let name: String
    let title: String
    let measure: (_ folder: String) -> [BenchmarkRow]
    private var folder: BenchmarkFolder?

    init(name: String, title: String, measure: @escaping (_ folder: String) -> [BenchmarkRow]) {
        self.name = name
        self.title = title
        self.measure = measure
    }

    mutating func setUp() throws { folder = try BenchmarkFolder(group: name) }
    mutating func run() -> [BenchmarkRow] { folder.map { measure($0.path) } ?? [] }
    mutating func tearDown() { folder?.remove() }
}

/// `fleet-bench failover`: `FailoverBenchmarks` as a group, its documented JSON keys beside the rows.
struct FailoverBenchmark: Benchmark {
    /// `fleet-bench failover`'s options.
    struct Flags: OptionGroup {
        @Option("writers", valueName: "count", help: "Writers sending CreateVehicle through the two nodes (1-256).",
                default: String(FailoverBenchmark().writerCount))
        var writers: Int
        @Option("steady-seconds", valueName: "seconds", help: "Steady load before the crash, before the switchover and after it (>= 1).",
                default: String(Int(FailoverBenchmark().steady)))
        var steadySeconds: Double
    }

    let name = "failover"
    let title = "PostgreSQL failover (Patroni, synchronous standby; 2 nodes under write load)"
    var writerCount = 8
    var steady = 5.0
    private(set) var summaryJSON: String?

    init() {}

    init(_ arguments: ParsedArguments, _ context: Context) throws {
        let flags = try Flags(arguments)
        let writers = flags.writers, steady = flags.steadySeconds
        guard (1...256).contains(writers) else { throw context.usageError("--writers must be from 1 to 256") }
        guard steady >= 1 else { throw context.usageError("--steady-seconds must be 1 or more") }
        writerCount = writers
        self.steady = steady
    }

    mutating func run() -> [BenchmarkRow] {
        guard FailoverCluster.isInstalled else {
            return [BenchmarkRow(name: "failover", skipped: "Patroni, etcd or PostgreSQL 15 missing: run `make setup`")]
        }
        do {
            let outcome = try FailoverBenchmarks.run(writers: writerCount, steadySeconds: steady)
            summaryJSON = outcome.json
            for error in outcome.otherErrors.prefix(5) { FileHandle.standardError.write(Data("fleet-bench failover: \(error)\n".utf8)) }
            return outcome.rows
        } catch {
            return [BenchmarkRow(name: "failover", failed: "\(error)")]
        }
    }
}

/// `fleet-bench nodes`: `NodeBenchmarks` as a group, its documented JSON keys beside the rows. Named
/// alone where machines cannot be made, it says why and exits 2.
struct NodesBenchmark: Benchmark {
    private static let defaults = NodeBenchmarks.Settings()
    /// `fleet-bench nodes`' options.
    struct Flags: OptionGroup {
        @Option("nodes", valueName: "counts", help: "Node counts to measure, 1 among them (each from 1 to 8).",
                default: defaults.nodeCounts.map(String.init).joined(separator: ","))
        var nodes: String
        @Option("seconds", valueName: "seconds", help: "Seconds of each load (>= 1).", default: String(defaults.seconds))
        var seconds: Int
        @Option("node-cpu", valueName: "cpus", help: "CPUs a node may use (>= 0.01).", default: "\(defaults.nodeQuota)")
        var nodeCPU: Double
        @Option("database-cpu", valueName: "cpus", help: "CPUs PostgreSQL may use (>= 0.01; default: no limit).")
        var databaseCPU: Double?
        @Option("delay-ms", valueName: "milliseconds",
                help: "Delay each way between a node and PostgreSQL for the delayed UpdateVehicle row (0-1000; 0: no such row).",
                default: "\(defaults.delayMilliseconds)")
        var delayMilliseconds: Double
    }

    let name = "nodes"
    let title = "nodes measured apart (a network namespace and CPU quota each; fleet-bench nodes)"
    var settings = NodeBenchmarks.Settings()
    private(set) var summaryJSON: String?

    init() {}

    init(_ arguments: ParsedArguments, _ context: Context) throws {
        let flags = try Flags(arguments)
        let counts = flags.nodes.split(separator: ",").map { Int($0) }
        guard !counts.isEmpty, counts.allSatisfy({ $0.map { (1...8).contains($0) } ?? false }), counts.contains(1) else {
            throw context.usageError("--nodes takes node counts from 1 to 8, 1 among them (e.g. 1,2,4)")
        }
        settings.nodeCounts = Array(Set(counts.compactMap { $0 })).sorted()
        let seconds = flags.seconds
        guard seconds >= 1 else { throw context.usageError("--seconds must be 1 or more") }
        settings.seconds = seconds
        settings.warmUpSeconds = min(settings.warmUpSeconds, seconds)
        let nodeCPU = flags.nodeCPU
        guard nodeCPU >= 0.01 else { throw context.usageError("--node-cpu must be 0.01 or more") }
        settings.nodeQuota = nodeCPU
        if let databaseCPU = flags.databaseCPU {
            guard databaseCPU >= 0.01 else { throw context.usageError("--database-cpu must be 0.01 or more") }
            settings.databaseQuota = databaseCPU
        }
        let delay = flags.delayMilliseconds
        guard (0...1000).contains(delay) else { throw context.usageError("--delay-ms must be from 0 to 1000") }
        settings.delayMilliseconds = delay
        if let reason = NodeBenchmarks.skipReason() { throw GroupUnavailable(reason: reason) }
    }

    mutating func run() -> [BenchmarkRow] {
        if let reason = NodeBenchmarks.skipReason() { return [BenchmarkRow(name: "nodes measured apart", skipped: reason)] }
        do {
            let outcome = try NodeBenchmarks.run(settings)
            summaryJSON = outcome.json
            return outcome.rows
        } catch {
            // A signal stops the run by failing its loads: the signal's handler, not this, ends the process.
            while NodeBenchmarks.interrupted.load(ordering: .relaxed) { sleep(1) }
            return [BenchmarkRow(name: "nodes measured apart", failed: "\(error)")]
        }
    }
}

/// `fleet-bench soak`: `SoakBenchmarks` as a group.
struct SoakBenchmark: Benchmark {
    /// `fleet-bench soak`'s options.
    struct Flags: OptionGroup {
        @Option("seconds", valueName: "seconds", help: "Seconds of each soak, warm-up included (>= 10).", default: "180")
        var seconds: Int
        @Option("watch-batch", valueName: "count", help: "Streams each watch cycler opens and closes at once (>= 1).",
                default: String(SoakBenchmarks.defaultWatchBatch))
        var watchBatch: Int
    }

    let name = "soak"
    let title = "soak (mixed load; server memory, files and threads)"
    let seconds: Double
    let watchBatch: Int
    let settings: [SoakBenchmarks.AllocatorSetting]

    init(seconds: Double, watchBatch: Int, settings: [SoakBenchmarks.AllocatorSetting]) {
        self.seconds = seconds
        self.watchBatch = watchBatch
        self.settings = settings
    }

    /// Named alone: every allocator setting, 180 s each unless `--seconds` says otherwise.
    init(_ arguments: ParsedArguments, _ context: Context) throws {
        let flags = try Flags(arguments)
        let seconds = flags.seconds, batch = flags.watchBatch
        guard seconds >= 10 else { throw context.usageError("--seconds must be 10 or more") }
        guard batch >= 1 else { throw context.usageError("--watch-batch must be 1 or more") }
        self.init(seconds: Double(seconds), watchBatch: batch, settings: SoakBenchmarks.AllocatorSetting.all)
    }

    mutating func run() -> [BenchmarkRow] { SoakBenchmarks.run(seconds: seconds, watchBatch: watchBatch, settings: settings) }
}
