import FleetCLI
import FleetErrors
import Foundation

/// One group of `fleet-bench` (`store`, `http`, `failover`…): set up what it measures, run it,
/// tear it down. `BenchmarkRunner` runs groups in this order, the tear-down whatever happened.
protocol Benchmark {
    /// The group's name on the command line (`fleet-bench store`).
    var name: String { get }
    /// The heading of its section in the table ("stores").
    var title: String { get }
    /// Makes what the measurements need beyond what `run` makes for itself (a folder). A thrown error
    /// is the group's one failed row, and `run` is not called.
    mutating func setUp() throws
    /// Measures: the rows of the group's section, a failed or skipped row for what could not be measured.
    mutating func run() -> [BenchmarkRow]
    /// Removes what `setUp` and `run` left, after a failure too.
    mutating func tearDown()
    /// Members of the group's JSON line beside its rows, once run: `fleet-bench failover --json`'s and
    /// `fleet-bench nodes --json`'s documented keys, as one JSON object (`{"twoNodesRatio":1.91,…}`); nil for most.
    var summaryJSON: String? { get }
}

extension Benchmark {
    mutating func setUp() throws {}
    mutating func tearDown() {}
    var summaryJSON: String? { nil }
}

/// A folder of the group's own under the temporary directory (`fleet-bench-store-PID`), made by
/// its set-up and removed by its tear-down.
struct BenchmarkFolder {
    let path: String

    init(group: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-bench-\(group)-\(getpid())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs groups one after another and prints what they measured: for people, one table under the
/// machine's description (what the figures depend on: the same code measures differently on another
/// CPU or under load); with `--json`, one JSON line per group. Ratios are against baselines measured
/// in the same run (machines are noisy; absolute figures vary between runs).
struct BenchmarkRunner {
    let context: Context
    let json: Bool

    /// Runs `benchmarks`; exit status 1 when a row failed, else 0.
    func run(_ benchmarks: [any Benchmark]) -> Int32 {
        let machine = MachineDescription.current()
        context.printError("machine: \(machine.cpu); \(machine.cores) cores; kernel \(machine.kernel); load average \(machine.loadAverage)")
        var table: [BenchmarkRow] = [.heading("machine")] + machine.rows(stolenSinceStart: nil)
        var failed = false
        for var benchmark in benchmarks {
            context.printError("running \(benchmark.title) benchmarks…")
            let rows = Self.rows(of: &benchmark)
            failed = failed || rows.contains { $0.status == .failed }
            if json {
                context.print(Self.jsonLine(group: benchmark.name, rows: rows, summary: benchmark.summaryJSON))
            } else {
                table += [.heading(benchmark.title)] + rows
            }
        }
        if !json {
            if let start = machine.startTimes, let end = CPUTimes.now() {
                table += machine.rows(stolenSinceStart: end.stolen(since: start)).suffix(1)
            }
            context.print(Self.table(table), terminator: "")
        }
        return failed ? ExitCode.failure.rawValue : ExitCode.success.rawValue
    }

    /// Sets `benchmark` up, runs it and tears it down.
    static func rows(of benchmark: inout any Benchmark) -> [BenchmarkRow] {
        defer { benchmark.tearDown() }
        do {
            try benchmark.setUp()
        } catch {
            return [BenchmarkRow(name: "\(benchmark.name): set-up", failed: "\(error)")]
        }
        return benchmark.run()
    }

    /// The table: a column of names, one of results, then the comparisons.
    static func table(_ rows: [BenchmarkRow]) -> String {
        let values = rows.map(\.valueText)
        let nameWidth = max(10, rows.map(\.name.count).max() ?? 0)
        let valueWidth = max(8, values.map(\.count).max() ?? 0)
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        var lines = [pad("benchmark", nameWidth) + "  " + pad("result", valueWidth) + "  against",
                     String(repeating: "-", count: nameWidth + valueWidth + 30)]
        for (row, value) in zip(rows, values) {
            lines.append(pad(row.name, nameWidth) + "  " + pad(value, valueWidth) + "  " + row.comparison)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{…summary's members…,"group":"store","rows":[{"name":…,"value":…,"unit":…},…]}` on one line.
    static func jsonLine(group: String, rows: [BenchmarkRow], summary: String?) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let encodedRows = (try? encoder.encode(rows)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        let encodedGroup = (try? encoder.encode(group)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        var members = ""
        if let summary, summary.hasPrefix("{"), summary.hasSuffix("}"), summary.count > 2 {
            members = String(summary.dropFirst().dropLast()) + ","
        }
        return "{\(members)\"group\":\(encodedGroup),\"rows\":\(encodedRows)}"
    }
}
