import FleetEngine
import FleetStore
import Foundation
import PostgresStore
import SQLiteStore
import ThrowawayPostgres

/// What keeping the position history costs the hot path: durable UpdateVehicle with the history on
/// against off, over SQLite and PostgreSQL, in the same run. The two settings alternate in rounds,
/// each on a fresh store, so that a burst of other work on the machine falls on both alike; the
/// ratio is of the medians (aim: at least 90%). On a loaded machine single runs vary threefold, so
/// the rows also give the process's CPU time per update, which varies less, and PostgreSQL's (its
/// server processes', which the process's leaves out: on a machine whose cores the client and the
/// server share, the sum is what the rate pays for). Rounds of two seconds
/// take in the store's own background work (its checkpoints, and whatever it does after every so
/// many points) in proportion.
enum HistoryBenchmarks {
    static let writers = 8
    static let rounds = 7
    static let secondsPerRun = 2.0

    static func run(tempDirectory: String) -> [BenchmarkRow] {
        let folder = "\(tempDirectory)/history"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rows = compare(store: "sqlite, durable") { round, keeps in
            try SQLiteStore(path: "\(folder)/\(keeps ? "on" : "off")-\(round).db", options: .init(durable: true))
        }
        rows += overREST(store: "sqlite, durable", folder: folder) { keeps in "sqlite:\(folder)/serve-\(keeps ? "on" : "off").db" }
        guard PostgresCluster.isInstalled else {
            return rows + [BenchmarkRow(name: "history on against off, postgres", skipped: "PostgreSQL 15 is not installed (make setup installs it)")]
        }
        do {
            let cluster = try PostgresCluster(durability: .machineCrash)
            defer { cluster.stop() }
            rows += compare(store: "postgres", serverSeconds: cluster.postmaster.map { postmaster in { ProcessCPU.postgresSeconds(postmaster: postmaster) } }) { round, keeps in
                try PostgresStore(url: try cluster.createDatabase("history_\(keeps ? "on" : "off")_\(round)"), options: .init(durable: true))
            }
            rows += overREST(store: "postgres", folder: folder) { keeps in try cluster.createDatabase("serve_history_\(keeps ? "on" : "off")") }
            rows += postgresAlone(cluster: cluster)
        } catch {
            rows.append(BenchmarkRow(name: "history on against off, postgres", failed: "the throwaway cluster did not start: \(error)"))
        }
        return rows
    }

    /// Rows for one store: each setting's median rate, and history on as a share of off.
    /// `serverSeconds` reads the database server's CPU time so far, for a store that has one.
    private static func compare(store name: String, serverSeconds: (() -> Double)? = nil,
                                open: (_ round: Int, _ keepsHistory: Bool) throws -> any Store) -> [BenchmarkRow] {
        var rates: [Bool: [Double]] = [true: [], false: []]
        var cpu: [Bool: [Double]] = [true: [], false: []]
        var serverCPU: [Bool: [Double]] = [true: [], false: []]
        do {
            for round in 0..<rounds {
                for keeps in round % 2 == 0 ? [false, true] : [true, false] {
                    let store = try open(round, keeps)
                    defer { try? store.close() }
                    var configuration = EngineConfiguration()
                    configuration.keepsHistory = keeps
                    let measured = try EngineBenchmarks.measureUpdates(Engine(store: store, configuration: configuration), writers: writers,
                                                                       seconds: secondsPerRun, serverSeconds: serverSeconds)
                    rates[keeps, default: []].append(measured.rate)
                    cpu[keeps, default: []].append(measured.cpuMicroseconds)
                    serverCPU[keeps, default: []].append(measured.serverMicroseconds)
                }
            }
        } catch {
            return [BenchmarkRow(name: "durable location updates with history on against off, \(name)", failed: "\(error)")]
        }
        let median = GRPCBenchmarks.median
        let on = median(rates[true] ?? [0]), off = median(rates[false] ?? [0])
        let cpuOn = median(cpu[true] ?? [0]), cpuOff = median(cpu[false] ?? [0])
        let serverOn = median(serverCPU[true] ?? [0]), serverOff = median(serverCPU[false] ?? [0])
        func serverText(_ microseconds: Double) -> String {
            serverSeconds == nil ? "" : String(format: "server CPU %.1f µs per update; ", microseconds)
        }
        return [
            BenchmarkRow(name: "durable location updates, history off, \(name), \(writers) writers", value: .perSecond(off),
                         comparison: String(format: "CPU %.1f µs per update; ", cpuOff) + serverText(serverOff)
                             + EngineBenchmarks.runsText(rates[false] ?? [])),
            BenchmarkRow(name: "durable location updates, history on, \(name), \(writers) writers", value: .perSecond(on),
                         comparison: String(format: "%.1f%% of history off (aim: 90%%); CPU %.1f µs per update (%.0f%% of off); ",
                                            off > 0 ? on / off * 100 : 0, cpuOn, cpuOff > 0 ? cpuOn / cpuOff * 100 : 0)
                             + serverText(serverOn) + EngineBenchmarks.runsText(rates[true] ?? []),
                         ratio: off > 0 ? on / off : nil, baseline: "history off"),
        ]
    }

    static let rawRounds = 3

    /// What PostgreSQL itself charges for a point, without the engine: durable upserts from raw libpq
    /// clients (`PostgresBenchmarks.rawUpserts`), each with a point inserted into the store's
    /// `history` table in the same statement against none, in alternating rounds. The server CPU a
    /// point adds here is a floor under the engine's rows: there the engine's own CPU per update is
    /// on both sides of the ratio, which lifts it above this one by that much and no more, and the
    /// engine's own work for the point lowers it again.
    private static func postgresAlone(cluster: PostgresCluster) -> [BenchmarkRow] {
        let title = "PostgreSQL alone: durable upserts with a point against without"
        var rates: [Bool: [Double]] = [:], server: [Bool: [Double]] = [:]
        do {
            for round in 0..<rawRounds {
                for keeps in round % 2 == 0 ? [false, true] : [true, false] {
                    let (rate, cost) = try PostgresBenchmarks.rawUpserts(cluster: cluster, database: "raw_points_\(keeps ? "on" : "off")_\(round)",
                                                                         keepingPoints: keeps)
                    rates[keeps, default: []].append(rate)
                    server[keeps, default: []].append(cost.postgresMicrosecondsPerWrite)
                }
            }
        } catch {
            return [BenchmarkRow(name: title, failed: "\(error)")]
        }
        let median = GRPCBenchmarks.median
        let on = median(rates[true] ?? [0]), off = median(rates[false] ?? [0])
        let serverOn = median(server[true] ?? [0]), serverOff = median(server[false] ?? [0])
        let clients = PostgresBenchmarks.clients
        return [
            BenchmarkRow(name: "PostgreSQL alone, upserts without a point, \(clients) clients (libpq, no engine)", value: .perSecond(off),
                         comparison: String(format: "server CPU %.1f µs per write; ", serverOff) + EngineBenchmarks.runsText(rates[false] ?? [])),
            BenchmarkRow(name: "PostgreSQL alone, upserts with a point in the history table, \(clients) clients", value: .perSecond(on),
                         comparison: String(format: "%.1f%% of without; server CPU %.1f µs per write (+%.1f µs a point); ",
                                            off > 0 ? on / off * 100 : 0, serverOn, serverOn - serverOff)
                             + EngineBenchmarks.runsText(rates[true] ?? []),
                         ratio: off > 0 ? on / off : nil, baseline: "without a point"),
        ]
    }

    static let restRounds = 5
    static let restSecondsPerRound = 3

    /// UpdateVehicle as a server answers it: `fleet-admin serve` with the history on (its default, with
    /// its learning job) against one with `--history-retention 0` (which keeps no points and learns
    /// nothing), side by side on `storeURL(keepsHistory)`,
    /// under wrk's location updates of 100 vehicles over REST (`HTTPBenchmarks.updateScript`, 50
    /// connections), in alternating rounds after a warm-up of each. The ratio is the median of the
    /// rounds' ratios. The engine's rows above leave out the transport, so they are the stricter
    /// figure; these are what a deployment sees.
    private static func overREST(store name: String, folder: String, storeURL: (_ keepsHistory: Bool) throws -> String) -> [BenchmarkRow] {
        let title = "UpdateVehicle over REST, history on against off, \(name)"
        guard let wrk = HTTPBenchmarks.which("wrk") else {
            return [BenchmarkRow(name: title, skipped: "wrk is not installed (make bench installs it)")]
        }
        do {
            let on = try HTTPBenchmarks.preparedServer(folder: folder, store: try storeURL(true))
            defer { on.stop() }
            let off = try HTTPBenchmarks.preparedServer(folder: folder, store: try storeURL(false), extraArguments: ["--history-retention", "0"])
            defer { off.stop() }
            let script = HTTPBenchmarks.updateScript
            for server in [off, on] {
                _ = HTTPBenchmarks.runWrk(wrk, url: server.url + "/", script: script, folder: folder, duration: HTTPBenchmarks.warmUp)
            }
            var rates: (on: [Double], off: [Double]) = ([], [])
            for round in 0..<restRounds {
                for keeps in round % 2 == 0 ? [false, true] : [true, false] {
                    guard let result = HTTPBenchmarks.runWrk(wrk, url: (keeps ? on : off).url + "/", script: script, folder: folder,
                                                             duration: "\(restSecondsPerRound)s"), result.errors == 0 else {
                        return [BenchmarkRow(name: title, failed: "wrk did not report, or some updates were refused")]
                    }
                    if keeps { rates.on.append(result.rate) } else { rates.off.append(result.rate) }
                }
            }
            let ratios = zip(rates.on, rates.off).map { $0 / $1 }.sorted()
            let ratio = ratios[ratios.count / 2]
            let median = GRPCBenchmarks.median
            func listed(_ values: [Double]) -> String { values.map { String(format: "%.0f%%", $0 * 100) }.joined(separator: ", ") }
            return [
                BenchmarkRow(name: "UpdateVehicle over REST, history off, \(name)", value: .perSecond(median(rates.off)),
                             comparison: "median of \(restRounds) rounds of \(restSecondsPerRound) s, wrk with 50 connections (baseline)"),
                BenchmarkRow(name: "UpdateVehicle over REST, history on, \(name)", value: .perSecond(median(rates.on)),
                             comparison: String(format: "%.1f%% of history off (aim: 90%%); the rounds, sorted: ", ratio * 100) + listed(ratios),
                             ratio: ratio, baseline: "history off"),
            ]
        } catch {
            return [BenchmarkRow(name: title, failed: "\(error)")]
        }
    }
}
