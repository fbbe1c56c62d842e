import FleetCLI
import Foundation
import SQLiteStore
import FleetCatalogue

ProductCauses.install()

// `fleet-bench eta …`: ETA accuracy on recorded drives, a command of its own with its own options.
if CommandLine.arguments.dropFirst().first == "eta" {
    await CommandLineTool.main(ETACommand.command)
}

// `fleet-bench failover [--json] …`: a PostgreSQL failover under write load, a command of its own (its JSON line alone).
if CommandLine.arguments.dropFirst().first == "failover" && CommandLine.arguments.count > 2 {
    FailoverBenchmarks.command(arguments: Array(CommandLine.arguments.dropFirst(2)))
}

// `fleet-bench nodes [--json] …`: nodes, PostgreSQL and the load generator on machines in miniature
// (network namespaces and CPU quotas), a command of its own; exits 2 where those cannot be made.
if CommandLine.arguments.dropFirst().first == "nodes" {
    NodeBenchmarks.command(arguments: Array(CommandLine.arguments.dropFirst(2)))
}

// `make bench`: every benchmark of the project in one run, printed as one table. Ratios are against
// baselines measured in the same run (machines are noisy; absolute figures vary between runs).

let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-bench-\(getpid())").path
try? FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: temporary) }

// `fleet-bench [GROUP [STORE]]`: one group (geo, route, eta-rows, store, engine, history, search, http, grpc, deliveries, postgres, failover, nodes, watch, map, soak;
// http-pairs and http-router run only when named); for engine, the update rows of the stores whose name contains STORE
// ("sqlite, durable"); `fleet-bench postgres short` runs its wrk loads for a second each.
let only = CommandLine.arguments.dropFirst().first
func wanted(_ group: String) -> Bool { only == nil || only == group }

var rows: [BenchmarkRow] = []
// What the figures depend on, first: the same code measures differently on another CPU or under load.
let machine = MachineDescription.current()
FileHandle.standardError.write(Data("machine: \(machine.cpu); \(machine.cores) cores; kernel \(machine.kernel); load average \(machine.loadAverage)\n".utf8))
rows.append(BenchmarkRow(name: "— machine", value: "", comparison: ""))
rows += machine.rows(stolenSinceStart: nil)
@MainActor func section(_ title: String, _ produce: () -> [BenchmarkRow]) {
    FileHandle.standardError.write(Data("running \(title) benchmarks…\n".utf8))
    rows.append(BenchmarkRow(name: "— \(title)", value: "", comparison: ""))
    rows += produce()
}

if wanted("geo") { section("route progress", GeoBenchmarks.run) }
if only == "eta-rows" || only == nil { section("ETA accuracy (fleet-bench eta)", { ETABenchmarks.run() }) }
if wanted("route") { section("route plans (Helsinki map)", RouteBenchmarks.run) }
var baseline: Double?
if wanted("store") {
    section("stores") {
        let store = StoreBenchmarks.run(tempDirectory: temporary)
        return store + FileStoreBenchmarks.run(tempDirectory: temporary)
    }
}
if wanted("engine") {
    section("engine") {
        let base = try? StoreBenchmarks.rawBatchedUpserts(path: "\(temporary)/engine-baseline.sqlite")
        return [BenchmarkRow(name: "raw SQLite upserts, one transaction (baseline)", value: base.map(StoreBenchmarks.rate) ?? "failed", comparison: "100%")]
            + EngineBenchmarks.run(tempDirectory: "\(temporary)/engine", baseline: base, only: CommandLine.arguments.dropFirst(2).first)
    }
}
if wanted("history") { section("position history", { HistoryBenchmarks.run(tempDirectory: temporary) }) }
if only == "search" {
    section("search") {
        (try? EngineBenchmarks.searchLatency(store: SQLiteStore(path: "\(temporary)/search.db", options: .init(durable: false)), vehicles: 100_000)) ?? []
    }
}
if wanted("http") { section("HTTP (wrk)", { HTTPBenchmarks.run() }) }
if only == "http-router" { section("UpdateVehicle with a router (wrk)", { HTTPBenchmarks.ownRoutes() }) }
if only == "http-pairs" { section("GetTrip and UpdateVehicle against nginx, in rounds", { HTTPBenchmarks.pairs() }) }
if wanted("grpc") { section("gRPC beside REST (h2load)", { GRPCBenchmarks.run() }) }
// `fleet-bench deliveries [short]`: Deliveries calls against the rides calls beside them, server CPU per call.
if wanted("deliveries") {
    section("Deliveries against rides, server CPU per call (h2load, memory store)", {
        DeliveryBenchmarks.run(plan: CommandLine.arguments.dropFirst(2).first == "short" ? .short : .full)
    })
}
// The PostgreSQL store, one and two nodes, and the restated SQLite aim (which compares with PostgreSQL).
if wanted("postgres") {
    section("PostgreSQL (a throwaway cluster, fsync and synchronous commit on)", {
        PostgresBenchmarks.run(tempDirectory: temporary, short: CommandLine.arguments.dropFirst(2).first == "short")
    })
}
if wanted("failover") {
    section("PostgreSQL failover (Patroni, synchronous standby; 2 nodes under write load)", { FailoverBenchmarks.rows() })
}
if only == nil {
    section("nodes measured apart (a network namespace and CPU quota each; fleet-bench nodes)", { NodeBenchmarks.rows() })
}
if wanted("watch") { section("watch streams", { WatchBenchmarks.run() }) }
if wanted("map") { section("map pages (headless Chromium)", { MapBenchmarks.run() }) }
// `fleet-bench soak [--seconds N] [--watch-batch N]`: each allocator setting under N seconds of mixed
// load (default 180); `make bench` runs a short one with the default and the recommended setting.
if wanted("soak") {
    var arguments = Array(CommandLine.arguments.dropFirst(2))
    var seconds = only == nil ? 20.0 : 180.0
    var watchBatch = SoakBenchmarks.defaultWatchBatch
    while let flag = arguments.first {
        let value = arguments.dropFirst().first.flatMap(Int.init)
        switch (flag, value) {
        case ("--seconds", let value?) where value >= 10: seconds = Double(value)
        case ("--watch-batch", let value?) where value >= 1: watchBatch = value
        default:
            FileHandle.standardError.write(Data("fleet-bench soak: '\(arguments.prefix(2).joined(separator: " "))' is not understood; usage: fleet-bench soak [--seconds N (>= 10)] [--watch-batch N (>= 1)]\n".utf8))
            exit(2)
        }
        arguments.removeFirst(2)
    }
    section("soak (mixed load; server memory, files and threads)", {
        SoakBenchmarks.run(seconds: seconds, watchBatch: watchBatch,
                           settings: only == nil ? SoakBenchmarks.AllocatorSetting.short : SoakBenchmarks.AllocatorSetting.all)
    })
}

// Removed here: the top-level defer above was seen not to run at the end of a run (empty folders stayed in /tmp).
try? FileManager.default.removeItem(atPath: temporary)
if let start = machine.startTimes, let end = CPUTimes.now() {
    rows += machine.rows(stolenSinceStart: end.stolen(since: start)).suffix(1)
}

let nameWidth = max(10, rows.map(\.name.count).max() ?? 0)
let valueWidth = max(8, rows.map(\.value.count).max() ?? 0)
func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
print(pad("benchmark", nameWidth) + "  " + pad("result", valueWidth) + "  against")
print(String(repeating: "-", count: nameWidth + valueWidth + 30))
for row in rows {
    print(pad(row.name, nameWidth) + "  " + pad(row.value, valueWidth) + "  " + row.comparison)
}
