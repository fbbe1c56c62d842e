import CLibPQ
import FleetConcurrency
import FleetEngine
import FleetModel
import FleetStore
import Foundation
import MemoryStore
import PostgresStore
import SQLiteStore
import Synchronization
import ThrowawayPostgres

/// `fleet-bench postgres`: the PostgreSQL store against raw PostgreSQL, one and two server nodes
/// against one node on SQLite, and the durability ceilings the SQLite store is held to, all in one
/// run on one throwaway cluster that keeps PostgreSQL's durability (fsync and synchronous commit on).
enum PostgresBenchmarks {
    /// Clients of the raw baseline and writers of the engine rows: what a few busy server threads
    /// or nodes would send at once, and what the SQLite aim is stated for.
    static let clients = 8

    /// Every row of the group; `short` runs each wrk load for one second (to see that it works).
    static func run(tempDirectory: String, short: Bool) -> [BenchmarkRow] {
        guard PostgresCluster.isInstalled else {
            return [BenchmarkRow(name: "PostgreSQL benchmarks", skipped: "PostgreSQL 15 is not installed (make setup installs it)")]
        }
        let folder = "\(tempDirectory)/postgres"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The SQLite rows first, before PostgreSQL runs: a server flushing its own writes in the
        // background made one fdatasync on the same disk take 4 ms instead of 0.1 ms.
        let sqlite = sqliteCeilings(folder: folder)
        let cluster: PostgresCluster
        do {
            cluster = try PostgresCluster(durability: .machineCrash)
        } catch {
            return [BenchmarkRow(name: "PostgreSQL benchmarks", failed: "the throwaway cluster did not start: \(error)")]
                + [sqliteHeading] + sqlite(nil)
        }
        defer { cluster.stop() }

        // The raw baseline runs before and after the engine, and the engine is held to the higher:
        // on a shared machine one 2-second run of either may land on another process's burst of
        // disk writes (one build gave raw 6,972/s in one run and 1,402/s in the next, with the
        // engine at 4,525/s and 4,830/s).
        var rows: [BenchmarkRow] = []
        var rawRates: [Double] = []
        func measureRaw(_ when: String, database: String) {
            let name = "raw durable single-row upserts into PostgreSQL, \(clients) clients (libpq, no engine), \(when)"
            do {
                let (rate, cost) = try rawUpserts(cluster: cluster, database: database)
                rawRates.append(rate)
                rows.append(BenchmarkRow(name: name, value: .perSecond(rate),
                                         comparison: cost.perWrite + "; " + tableShape(cluster: cluster, database: database, table: "upserts", filter: "true")))
            } catch {
                rows.append(BenchmarkRow(name: name, failed: "\(error)"))
            }
        }
        measureRaw("before the engine", database: "raw")
        let name = "engine location updates, postgres, \(clients) writers"
        var engineRows: [BenchmarkRow] = []
        var engineRate: (rate: Double, inFlight: Double, cost: PostgresWriteCost)?
        do {
            let store = try PostgresStore(url: try cluster.createDatabase("engine"))
            defer { try? store.close() }
            let engine = Engine(store: store)
            let probe = try PostgresWriteCost.Probe(cluster: cluster, database: "engine")
            let first = Handoff<(reading: PostgresWriteCost.Reading, time: UInt64)?>()
            let inFlight = InFlightSampler(store: store)
            let rate = try EngineBenchmarks.updatesPerSecond(engine, writers: clients) {
                // The cost is read over the timed part, after the writers' warm-up.
                WorkerThread.start(name: "bench-cost") {
                    usleep(UInt32(EngineBenchmarks.warmUpSeconds * 1e6))
                    let reading = try? probe.sample()
                    first.give(reading.map { ($0, DispatchTime.now().uptimeNanoseconds) })
                }
            }
            let sampled = first.take()
            let last = try probe.sample()
            guard let start = sampled else { throw BenchmarkFailure(message: "the cost of the engine's writes was not read") }
            let writes = Int(rate * Double(DispatchTime.now().uptimeNanoseconds - start.time) / 1e9)
            engineRate = (rate, inFlight.stop(), probe.cost(from: start.reading, to: last, writes: writes))
            engineRows += statementCounts(engine: engine, store: store)
        } catch {
            engineRows.append(BenchmarkRow(name: name, failed: "\(error)"))
        }
        let engineShape = tableShape(cluster: cluster, database: "engine", table: "records", filter: "kind = 'vehicle'")
        measureRaw("after it", database: "raw_again")
        let raw = rawRates.max()
        if let raw {
            rows.append(BenchmarkRow(name: "raw durable single-row upserts, the higher of the two", value: .perSecond(raw),
                                     comparison: "100% (baseline)"))
        }
        if let engineRate {
            rows.append(BenchmarkRow(name: name, value: .perSecond(engineRate.rate),
                                     comparison: share(engineRate.rate, of: raw, aim: 0.5)
                                         + String(format: "; %.1f commits in flight on average", engineRate.inFlight),
                                     ratio: raw.map { engineRate.rate / $0 }, baseline: "raw durable single-row upserts, the higher of the two"))
            rows.append(BenchmarkRow(note: "  what one engine update costs",
                                     comparison: engineRate.cost.perWrite + "; " + engineShape))
        }
        rows += engineRows
        rows += httpRows(cluster: cluster, folder: folder, raw: raw, short: short)
        rows.append(sqliteHeading)
        rows += sqlite(raw)
        return rows
    }

    static let sqliteHeading = BenchmarkRow.heading("the restated SQLite aim: durable writers against their two ceilings")

    /// "N% of raw PostgreSQL upserts", with the aim and whether it is met.
    static func share(_ rate: Double, of raw: Double?, aim: Double) -> String {
        guard let raw else { return "" }
        let ratio = rate / raw
        return String(format: "%.0f%% of raw PostgreSQL upserts; aim >= %.0f%%: %@", ratio * 100, aim * 100, ratio >= aim ? "met" : "not met")
    }

    // MARK: Round trips

    /// Statements the store runs per location update (one writer, then `clients` writers, whose
    /// change notifications share statements) and per GetTrip, counted by the store itself: each
    /// is a round trip to PostgreSQL.
    static func statementsPerCall(engine: Engine, store: PostgresStore) throws -> (oneWriter: Double, writers: Double, getTrip: Double) {
        let provider = EngineBenchmarks.provider
        let calls = 200
        @Sendable func update(_ writer: Int, _ i: Int) throws {
            _ = try engine.updateVehicle(UpdateVehicleRequest(
                name: "providers/\(provider)/vehicles/w\(writer)v\(i % EngineBenchmarks.vehiclesPerWriter)",
                vehicle: Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: 52.6 + Double(i) * 1e-5, longitude: 13.4))),
                updateMask: ["lastLocation"]))
        }
        func counted(_ body: () throws -> Void) throws -> Int {
            store.waitForNotifications()
            let before = store.statementsRun
            try body()
            store.waitForNotifications()
            return store.statementsRun - before
        }
        let one = try counted { for i in 0..<calls { try update(0, i) } }
        let failures = Mutex(0)
        let many = try counted {
            // A thread per writer (concurrentPerform would run only as many at once as there are cores).
            let group = DispatchGroup()
            for writer in 0..<clients {
                group.enter()
                WorkerThread.start(name: "bench-writer") {
                    defer { group.leave() }
                    for i in 0..<calls { do { try update(writer, i) } catch { failures.withLock { $0 += 1 } } }
                }
            }
            group.wait()
        }
        if failures.withLock({ $0 }) > 0 { throw BenchmarkFailure(message: "\(failures.withLock { $0 }) updates failed") }
        _ = try engine.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: "counted", trip: Trip(
            vehicleId: "w0v1", tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)),
            dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.43)))))
        let reads = try counted {
            for _ in 0..<calls { _ = try engine.getTrip(GetTripRequest(name: "providers/\(provider)/trips/counted")) }
        }
        return (Double(one) / Double(calls), Double(many) / Double(calls * clients), Double(reads) / Double(calls))
    }

    /// The rows of `statementsPerCall`.
    static func statementCounts(engine: Engine, store: PostgresStore) -> [BenchmarkRow] {
        let name = "statements per location update / per GetTrip, postgres"
        do {
            let counts = try statementsPerCall(engine: engine, store: store)
            return [BenchmarkRow(name: name, value: .plain(counts.writers, decimals: 2), also: [.plain(counts.getTrip, decimals: 2)],
                                 comparison: String(format: "update: %.2f with 1 writer, %.2f with %d (notifications of several commits share one); round trips counted by the store",
                                                    counts.oneWriter, counts.writers, clients))]
        } catch {
            return [BenchmarkRow(name: name, failed: "\(error)")]
        }
    }

    /// Samples the store's commits in flight (queued or running on its commit threads) every
    /// millisecond on a thread of its own until `stop()`, which returns their mean over the last
    /// `EngineBenchmarks.secondsPerRun` (the measured part of a run, after its set-up and warm-up).
    final class InFlightSampler: Sendable {
        private let samples = Mutex((values: [(time: UInt64, inFlight: Int)](), stop: false))
        private let done = Semaphore()

        init(store: PostgresStore) {
            WorkerThread.start(name: "bench-in-flight") { [self] in
                while true {
                    let inFlight = store.commitsInFlight
                    let now = DispatchTime.now().uptimeNanoseconds
                    let stop = samples.withLock { samples -> Bool in
                        samples.values.append((now, inFlight))
                        return samples.stop
                    }
                    if stop { break }
                    usleep(1000)
                }
                done.signal()
            }
        }

        func stop() -> Double {
            samples.withLock { $0.stop = true }
            done.wait()
            let since = DispatchTime.now().uptimeNanoseconds - UInt64(EngineBenchmarks.secondsPerRun * 1e9)
            let measured = samples.withLock { $0.values.filter { $0.time >= since }.map(\.inFlight) }
            return measured.isEmpty ? 0 : Double(measured.reduce(0, +)) / Double(measured.count)
        }
    }

    // MARK: Raw PostgreSQL

    /// Single-row upserts, each its own durable commit, from `clients` libpq connections on threads of
    /// their own, for `EngineBenchmarks.secondsPerRun` after a warm-up: what PostgreSQL itself does
    /// on this machine for writers like the engine's, without the engine. With `keepingPoints`, each
    /// upsert also inserts a point into the store's own `history` table (created by `PostgresStore`'s
    /// migrations, so with its indexes), in the same statement, as the store keeps a vehicle's
    /// history: what PostgreSQL alone charges for a point.
    static func rawUpserts(cluster: PostgresCluster, database: String, keepingPoints: Bool = false) throws -> (rate: Double, cost: PostgresWriteCost) {
        let url = try cluster.createDatabase(database)
        if keepingPoints { try PostgresStore(url: url).close() }
        let conninfo = cluster.conninfo(database: database)
        let setup = try RawConnection(conninfo)
        let probe = try PostgresWriteCost.Probe(cluster: cluster, database: database)
        try setup.run("CREATE TABLE IF NOT EXISTS upserts (id text PRIMARY KEY, version bigint NOT NULL, payload text NOT NULL)")
        let upsert = """
            INSERT INTO upserts (id, version, payload) VALUES ($1, 1, $2)
            ON CONFLICT (id) DO UPDATE SET version = upserts.version + 1, payload = excluded.payload
            RETURNING version
            """
        let statement = keepingPoints ? """
            WITH written AS (\(upsert)),
            kept AS (INSERT INTO history (provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips)
                     SELECT 'providers/bench'::bytea, convert_to($1, 'UTF8'), $3::int8, 60.17, 24.94, 5, 9, 90, 'ENROUTE'::bytea, 'trip-1'::bytea
                     FROM written)
            SELECT version FROM written
            """ : upsert
        // About the size of a vehicle as the engine stores it.
        let payload = String(repeating: "x", count: 300)
        let done = Mutex(0)
        let failure = Mutex<String?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds + UInt64(EngineBenchmarks.warmUpSeconds * 1e9)
        let deadline = start + UInt64(EngineBenchmarks.secondsPerRun * 1e9)
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            WorkerThread.start(name: "bench-raw") {
                defer { group.leave() }
                do {
                    let connection = try RawConnection(conninfo)
                    var i = 0
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        let id = "c\(client)v\(i % EngineBenchmarks.vehiclesPerWriter)"
                        try connection.run(statement, keepingPoints ? [id, payload, String(i)] : [id, payload])
                        if DispatchTime.now().uptimeNanoseconds >= start { done.withLock { $0 += 1 } }
                        i += 1
                    }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }
        }
        let now = DispatchTime.now().uptimeNanoseconds
        if now < start { usleep(UInt32((start - now) / 1000)) }
        let first = try probe.sample()
        group.wait()
        let last = try probe.sample()
        if let message = failure.withLock({ $0 }) { throw BenchmarkFailure(message: message) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let writes = done.withLock { $0 }
        return (Double(writes) / elapsed, probe.cost(from: first, to: last, writes: writes))
    }

    /// How PostgreSQL keeps the rows `table` holds (`filter` picks those the benchmark updates):
    /// their mean size, the indexes an update that is not HOT must change, and the share of updates
    /// that were HOT (the new row on the same page, no index touched). Read once the writers'
    /// connections closed, which is when their backends report their counts.
    static func tableShape(cluster: PostgresCluster, database: String, table: String, filter: String) -> String {
        do {
            let connection = try RawConnection(cluster.conninfo(database: database))
            var counts = "", previous = "-"
            for _ in 0..<20 where counts != previous {
                previous = counts
                usleep(100_000)
                counts = try connection.value("SELECT n_tup_upd || ' ' || n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = '\(table)'")
            }
            let numbers = counts.split(separator: " ").compactMap { Double($0) }
            let hot = numbers.count == 2 && numbers[0] > 0 ? String(format: "%.0f%% of %.0f updates HOT", numbers[1] / numbers[0] * 100, numbers[0]) : "no updates counted"
            let size = try connection.value("SELECT round(avg(pg_column_size(t.*)))::text FROM \(table) t WHERE \(filter)")
            let indexes = try connection.value("SELECT count(*)::text FROM pg_index WHERE indrelid = '\(table)'::regclass")
            let fillfactor = try connection.value("""
                SELECT coalesce((SELECT option_value FROM pg_options_to_table((SELECT reloptions FROM pg_class WHERE oid = '\(table)'::regclass))
                                 WHERE option_name = 'fillfactor'), '100')
                """)
            return "rows of \(size) B, \(indexes) index\(indexes == "1" ? "" : "es"), fillfactor \(fillfactor); \(hot)"
        } catch {
            return "(not read: \(error))"
        }
    }

    /// One libpq connection of the raw baseline, statements in text format, each prepared once.
    final class RawConnection {
        private let connection: OpaquePointer

        init(_ conninfo: String) throws {
            guard let connection = PQconnectdb(conninfo) else { throw BenchmarkFailure(message: "libpq could not allocate a connection") }
            guard PQstatus(connection) == CONNECTION_OK else {
                let message = String(cString: PQerrorMessage(connection))
                PQfinish(connection)
                throw BenchmarkFailure(message: "connecting to PostgreSQL: \(message)")
            }
            self.connection = connection
        }

        deinit { PQfinish(connection) }

        /// The statements prepared on this connection, by their text.
        private var prepared: [String: String] = [:]

        /// Runs `sql`, prepared once per connection as the store prepares its writes: a baseline
        /// that parses and plans every upsert again spends PostgreSQL CPU the store does not.
        func run(_ sql: String, _ parameters: [String] = []) throws {
            let copies = parameters.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            let values: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
            var name = prepared[sql]
            if name == nil {
                let statement = "raw_\(prepared.count + 1)"
                try check(PQprepare(connection, statement, sql, Int32(parameters.count), nil))
                prepared[sql] = statement
                name = statement
            }
            try check(PQexecPrepared(connection, name, Int32(parameters.count), values, nil, nil, 0))
        }

        /// The first column of the first row `sql` answers, as text ("" when none).
        func value(_ sql: String) throws -> String {
            let result = PQexec(connection, sql)
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_TUPLES_OK else {
                throw BenchmarkFailure(message: "PostgreSQL: \(String(cString: PQerrorMessage(connection)))")
            }
            guard PQntuples(result) > 0, let text = PQgetvalue(result, 0, 0) else { return "" }
            return String(cString: text)
        }

        private func check(_ result: OpaquePointer?) throws {
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                throw BenchmarkFailure(message: "PostgreSQL: \(String(cString: PQerrorMessage(connection)))")
            }
        }
    }

    // MARK: HTTP

    /// UpdateVehicle and GetTrip under wrk: one node on durable SQLite, one node on PostgreSQL and two
    /// nodes on the same PostgreSQL database (the load split evenly, one wrk per node, the same 50
    /// connections and two wrk threads in all). GetTrip on one and two PostgreSQL nodes, whose
    /// comparison is an aim, runs in alternating rounds (`alternatingRounds`).
    static func httpRows(cluster: PostgresCluster, folder: String, raw: Double?, short: Bool) -> [BenchmarkRow] {
        guard let wrk = HTTPBenchmarks.which("wrk") else {
            return [BenchmarkRow(name: "HTTP on PostgreSQL", skipped: "wrk is not installed (make bench installs it)")]
        }
        let duration = short ? "1s" : HTTPBenchmarks.duration
        let warmUp = short ? "1s" : HTTPBenchmarks.warmUp
        var servers: [BenchServer] = []
        defer { servers.forEach { $0.stop() } }
        let sqlite: BenchServer, first: BenchServer, second: BenchServer
        do {
            sqlite = try HTTPBenchmarks.preparedServer(folder: folder)
            servers.append(sqlite)
            let database = try cluster.createDatabase("http")
            first = try HTTPBenchmarks.preparedServer(folder: folder, store: database)
            servers.append(first)
            second = try BenchServer(folder: folder, store: database, extraArguments: [])
            servers.append(second)
        } catch {
            return [BenchmarkRow(name: "fleet-admin serve on PostgreSQL", failed: "\(error)")]
        }
        var rows: [BenchmarkRow] = []
        let calls: [(name: String, path: String, script: String?)] = [
            ("UpdateVehicle (location)", "/", HTTPBenchmarks.updateScript),
            ("GetTrip", "/v1/providers/\(HTTPBenchmarks.provider)/trips/t1", nil),
        ]
        for call in calls {
            // Each node's wrk with its own script; for updates on two nodes, once on all vehicles from
            // both nodes (writes of one vehicle from two nodes conflict and are redone) and once with
            // each node updating half of them.
            let halves = call.script == nil ? [nil, nil] : [HTTPBenchmarks.updates(ofVehicles: 0..<50), HTTPBenchmarks.updates(ofVehicles: 50..<100)]
            var setups: [(label: String, nodes: [BenchServer], scripts: [String?])] = [
                ("1 node on durable SQLite", [sqlite], [call.script]), ("1 node on PostgreSQL", [first], [call.script]),
                ("2 nodes on PostgreSQL", [first, second], [call.script, call.script]),
            ]
            if call.script != nil {
                setups[2].label = "2 nodes on PostgreSQL, both on all 100 vehicles"
                setups.append(("2 nodes on PostgreSQL, 50 vehicles each", [first, second], halves))
            }
            if call.script == nil {
                // GetTrip on PostgreSQL in alternating rounds (see `alternatingRounds`); SQLite once.
                let sqliteRate = row(wrk, cluster: cluster, setup: setups[0], call: call, folder: folder, warmUp: warmUp, duration: duration, rows: &rows)
                rows += alternatingRounds(wrk, cluster: cluster, call: (call.name, call.path), one: first, two: [first, second],
                                          folder: folder, warmUp: warmUp, seconds: short ? 1 : roundSeconds, sqlite: sqliteRate)
                continue
            }
            var rates: [Double?] = []
            for setup in setups {
                let oneNode = rates.count > 1 ? rates[1] : nil
                rates.append(row(wrk, cluster: cluster, setup: setup, call: call, folder: folder, warmUp: warmUp, duration: duration, rows: &rows) { rate in
                    if setup.nodes.count == 1 && setup.label.contains("PostgreSQL") { return "; " + share(rate, of: raw, aim: 0.5) }
                    if setup.nodes.count == 2, let oneNode { return String(format: "; %.2fx 1 node", rate / oneNode) }
                    return ""
                })
            }
        }
        return rows
    }

    /// One warmed-up wrk load of `setup` as a row of `rows` (rate, p99, answers not 2xx, then what
    /// `compare` says of the rate); its rate, nil when wrk did not report. A load of updates on one
    /// PostgreSQL node also gives what an update cost the node and PostgreSQL in CPU.
    static func row(_ wrk: String, cluster: PostgresCluster, setup: (label: String, nodes: [BenchServer], scripts: [String?]),
                    call: (name: String, path: String, script: String?), folder: String, warmUp: String, duration: String,
                    rows: inout [BenchmarkRow], compare: (Double) -> String = { _ in "" }) -> Double? {
        _ = load(wrk, nodes: setup.nodes, path: call.path, scripts: setup.scripts, folder: folder, duration: warmUp)
        let costed = setup.nodes.count == 1 && setup.label.contains("PostgreSQL") && call.script != nil
        let node = setup.nodes[0].process.processIdentifier
        func postgresSeconds() -> Double { cluster.postmaster.map { ProcessCPU.postgresSeconds(postmaster: $0) } ?? 0 }
        let (nodeBefore, postgresBefore) = (ProcessCPU.seconds(node), costed ? postgresSeconds() : 0)
        let result = load(wrk, nodes: setup.nodes, path: call.path, scripts: setup.scripts, folder: folder, duration: duration)
        let (nodeSpent, postgresSpent) = (ProcessCPU.seconds(node) - nodeBefore, costed ? postgresSeconds() - postgresBefore : 0)
        let name = "\(call.name) over HTTP, \(setup.label)"
        guard let result else {
            rows.append(BenchmarkRow(name: name, failed: "wrk did not report"))
            return nil
        }
        var comparison = "p99 \(result.p99)" + (result.errors > 0 ? "; \(result.errors) non-2xx" : "") + compare(result.rate)
        if costed, cluster.postmaster != nil, let seconds = Double(duration.dropLast()) {
            let updates = max(1, result.rate * seconds)
            comparison += String(format: "; CPU per update: node %.0f µs + PostgreSQL %.0f µs", nodeSpent / updates * 1e6, postgresSpent / updates * 1e6)
        }
        rows.append(BenchmarkRow(name: name, value: .perSecond(result.rate), comparison: comparison))
        return result.rate
    }

    /// Seconds of each load of `alternatingRounds` in the full run.
    static let roundSeconds = 3
    /// Rounds of `alternatingRounds`: the median of three stands when one lands on another process's burst.
    static let rounds = 3

    /// The most of the cores other processes may take during the GetTrip rounds for their comparison
    /// to get a verdict: on two cores shared with PostgreSQL and wrk, a build beside them moved two
    /// nodes from 0.53× to 1.95× one node, round to round.
    static let maximumOtherShare = 0.2

    /// One wrk load with what the machine's CPU did meanwhile.
    struct MeasuredLoad {
        var result: HTTPBenchmarks.WrkResult
        /// The share of the machine's CPU time left idle: near 0 when the load was bound by the cores.
        var idle: Double
        /// CPU per call of the nodes and of PostgreSQL's processes, in seconds.
        var nodeCPU: Double
        var postgresCPU: Double
        /// The share of the machine's cores the nodes, PostgreSQL and wrk used together: what the
        /// load got, also when other processes took the rest (then the idle share reads 0).
        var used: Double
        /// The share of each node's CPU its busiest thread spent, the mean over the nodes: near
        /// 1 when one server thread held all of a node's connections and served them in turn.
        var busiestThread: Double
    }

    /// `load` of GET `path` on `nodes`, with the machine's idle time and the CPU the nodes and
    /// PostgreSQL spent per call over it (from `/proc`).
    static func measuredLoad(_ wrk: String, cluster: PostgresCluster, nodes: [BenchServer], path: String, folder: String, seconds: Int) -> MeasuredLoad? {
        let postmaster = cluster.postmaster
        func nodeSeconds() -> Double { nodes.map { ProcessCPU.seconds($0.process.processIdentifier) }.reduce(0, +) }
        func postgresSeconds() -> Double { postmaster.map { ProcessCPU.postgresSeconds(postmaster: $0) } ?? 0 }
        let startThreads = nodes.map { ProcessCPU.threadSeconds($0.process.processIdentifier) }
        let (startTimes, startNodes, startPostgres, startWrk) = (CPUTimes.now(), nodeSeconds(), postgresSeconds(), ProcessCPU.endedChildrenSeconds())
        let start = DispatchTime.now().uptimeNanoseconds
        guard let result = load(wrk, nodes: nodes, path: path, scripts: nodes.map { _ in nil }, folder: folder, duration: "\(seconds)s") else { return nil }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let calls = max(1, result.rate * Double(seconds))
        let (nodeCPU, postgresCPU) = (nodeSeconds() - startNodes, postgresSeconds() - startPostgres)
        let spent = nodeCPU + postgresCPU + ProcessCPU.endedChildrenSeconds() - startWrk
        var idle = 0.0
        if let startTimes, let end = CPUTimes.now() { idle = end.idle(since: startTimes) }
        let busiest = zip(nodes, startThreads).map { node, start in
            ProcessCPU.busiestThreadShare(from: start, to: ProcessCPU.threadSeconds(node.process.processIdentifier))
        }
        return MeasuredLoad(result: result, idle: idle, nodeCPU: nodeCPU / calls, postgresCPU: postgresCPU / calls,
                            used: spent / (elapsed * Double(ProcessInfo.processInfo.activeProcessorCount)),
                            busiestThread: busiest.reduce(0, +) / Double(busiest.count))
    }

    /// `call` on one node and on two, in `rounds` rounds of `seconds` each, the order alternating from
    /// round to round, so that neither is always measured first or later: a single 1-second load of
    /// each on two cores shared with PostgreSQL and wrk gave two nodes 0.94× to 1.23× one node, run
    /// to run. The rows give the medians and their ranges, the median of the rounds' ratios, the share
    /// of the cores the load used and the machine's idle share (so that a row bound by the cores shows
    /// as one), each side's CPU per call, and each round's busiest-thread share: two nodes lead when
    /// each node's connections landed on one server thread, which then serves them in turn on one
    /// core, its PostgreSQL backend and wrk thread beside it (docs/scaling.md).
    static func alternatingRounds(_ wrk: String, cluster: PostgresCluster, call: (name: String, path: String), one: BenchServer, two: [BenchServer],
                                  folder: String, warmUp: String, seconds: Int, sqlite: Double?) -> [BenchmarkRow] {
        let setups = [[one], two]
        for nodes in setups { _ = load(wrk, nodes: nodes, path: call.path, scripts: nodes.map { _ in nil }, folder: folder, duration: warmUp) }
        var runs: [[MeasuredLoad?]] = [[], []]
        for round in 0..<rounds {
            for index in (round % 2 == 0 ? [0, 1] : [1, 0]) {
                runs[index].append(measuredLoad(wrk, cluster: cluster, nodes: setups[index], path: call.path, folder: folder, seconds: seconds))
            }
        }
        let names = ["\(call.name) over HTTP, 1 node on PostgreSQL", "\(call.name) over HTTP, 2 nodes on PostgreSQL"]
        guard runs.allSatisfy({ $0.allSatisfy { $0 != nil } }) else {
            return names.map { BenchmarkRow(name: $0, failed: "wrk did not report") }
        }
        let loads = runs.map { $0.compactMap { $0 } }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var rows: [BenchmarkRow] = []
        for (index, measured) in loads.enumerated() {
            let rates = measured.map(\.result.rate)
            let middle = measured.sorted { $0.result.rate < $1.result.rate }[measured.count / 2]
            var comparison = String(format: "median of %d rounds of %d s, range %@–%@; p99 %@", rounds, seconds,
                                    String(StoreBenchmarks.rate(rates.min()!).dropLast(3)), StoreBenchmarks.rate(rates.max()!), middle.result.p99)
            let errors = measured.map(\.result.errors).reduce(0, +)
            if errors > 0 { comparison += "; \(errors) non-2xx" }
            if index == 0, let sqlite { comparison += String(format: "; %.0f%% of SQLite", median(rates) / sqlite * 100) }
            if index == 1 {
                let ratios = zip(loads[1], loads[0]).map { $0.result.rate / $1.result.rate }
                let above = ratios.filter { $0 > 1 }.count
                // What neither the load nor idleness took went to other processes: beyond a fifth of
                // the cores, they, not the nodes, decided the comparison.
                let others = median((loads[0] + loads[1]).map { max(0, 1 - $0.idle - $0.used) })
                let oneNodeUsed = median(loads[0].map(\.used))
                let verdict = others > maximumOtherShare ? String(format: "no verdict: other processes took %.0f%% of the cores", others * 100)
                    : median(ratios) > 1 ? "met"
                    : oneNodeUsed >= 0.9 ? String(format: "not met: one node already used %.0f%% of the cores, and a second on them adds none", oneNodeUsed * 100)
                    : "not met"
                comparison += String(format: "; %.2fx 1 node (median of the rounds' ratios, %@); aim > 1 node: %@ (ahead in %d of %d rounds)",
                                     median(ratios), ratios.map { String(format: "%.2fx", $0) }.joined(separator: ", "),
                                     verdict, above, ratios.count)
            }
            let idle = measured.map(\.idle)
            let used = measured.map(\.used)
            comparison += String(format: "; nodes, PostgreSQL and wrk used %.0f%% of the cores (%.0f–%.0f%%)", median(used) * 100, used.min()! * 100, used.max()! * 100)
            comparison += String(format: "; CPU idle %.0f%% (%.0f–%.0f%%); CPU per call: %@ %.0f µs + PostgreSQL %.0f µs; busiest server thread %@ of its node's CPU",
                                 median(idle) * 100, idle.min()! * 100, idle.max()! * 100, index == 0 ? "node" : "nodes",
                                 median(measured.map(\.nodeCPU)) * 1e6, median(measured.map(\.postgresCPU)) * 1e6,
                                 measured.map { String(format: "%.0f%%", $0.busiestThread * 100) }.joined(separator: ", "))
            rows.append(BenchmarkRow(name: names[index], value: .perSecond(median(rates)), comparison: comparison))
        }
        return rows
    }

    /// wrk against every node at once (with the script of the same index), the connections and wrk
    /// threads shared among them (or `connectionsPerNode` each); the rates summed and the worst p99 kept.
    static func load(_ wrk: String, nodes: [BenchServer], path: String, scripts: [String?], folder: String,
                     duration: String, connectionsPerNode: Int? = nil) -> HTTPBenchmarks.WrkResult? {
        let connections = connectionsPerNode.map { $0 * nodes.count } ?? Int(HTTPBenchmarks.connections) ?? 50
        let results = Mutex<[HTTPBenchmarks.WrkResult?]>([])
        let group = DispatchGroup()
        for (node, script) in zip(nodes, scripts) {
            group.enter()
            let url = node.url + path
            WorkerThread.start(name: "bench-wrk") {
                defer { group.leave() }
                let result = HTTPBenchmarks.runWrk(wrk, url: url, script: script, folder: folder, duration: duration,
                                                   connections: connections / nodes.count, threads: max(1, 2 / nodes.count))
                results.withLock { $0.append(result) }
            }
        }
        group.wait()
        let all = results.withLock { $0 }
        guard all.count == nodes.count, all.allSatisfy({ $0 != nil }) else { return nil }
        let found = all.compactMap { $0 }
        return HTTPBenchmarks.WrkResult(rate: found.map(\.rate).reduce(0, +),
                                        p99: found.map(\.p99).max { milliseconds($0) < milliseconds($1) } ?? "?",
                                        errors: found.map(\.errors).reduce(0, +))
    }

    /// wrk's latency text ("1.20ms", "850.00us", "1.02s") in milliseconds, for comparing them.
    static func milliseconds(_ text: String) -> Double {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0)] where text.hasSuffix(unit) {
            return (Double(text.dropLast(unit.count)) ?? 0) * scale
        }
        return 0
    }

    // MARK: The SQLite aim

    /// Eight synchronous writers share at most eight commits per fsync, and on few cores the engine's
    /// own CPU caps them too: both ceilings measured here, with the durable SQLite engine against them
    /// and against raw PostgreSQL with as many clients.
    /// Measures now; the rows come once the raw PostgreSQL rate they compare with is known.
    ///
    /// Each ceiling is the highest of several measurements around the durable run, so that neither
    /// reads low on a busy machine and flatters the aim: one run of 8 writers on the memory store
    /// read 24k/s and another 124k/s, and one `fdatasync` median read 4 ms beside 0.2 ms minutes
    /// before, while another process flushed the disk.
    static func sqliteCeilings(folder: String) -> (_ postgres: Double?) -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        var syncs: [Double] = []
        func measureSync() throws {
            syncs.append(try fdatasyncMedian(folder: folder).median)
        }
        var memoryRuns: [EngineBenchmarks.UpdateRun] = []
        func measureMemory(runs: Int) throws {
            for _ in 0..<runs {
                memoryRuns.append(try EngineBenchmarks.measureUpdates(Engine(store: MemoryStore()), writers: clients))
            }
        }
        var unsynced: (run: EngineBenchmarks.UpdateRun, counts: GroupCommitStatistics)?
        var durable: (run: EngineBenchmarks.UpdateRun, counts: GroupCommitStatistics)?
        var rawSQLite: Double?
        var bareUpserts: Double?
        func measureSQLite(durably: Bool) throws -> (run: EngineBenchmarks.UpdateRun, counts: GroupCommitStatistics) {
            let store = try SQLiteStore(path: "\(folder)/aim-\(durably ? "durable" : "unsynced").db", options: .init(durable: durably))
            defer { try? store.close() }
            var before = store.groupCommitStatistics
            let run = try EngineBenchmarks.measureUpdates(Engine(store: store), writers: clients) { before = store.groupCommitStatistics }
            return (run, store.groupCommitStatistics.since(before))
        }
        var failure: BenchmarkRow?
        do {
            // Ceilings before and after the SQLite rows, the fsync last, with no other writer.
            try measureSync()
            try measureMemory(runs: 2)
            unsynced = try measureSQLite(durably: false)
            durable = try measureSQLite(durably: true)
            rawSQLite = try StoreBenchmarks.rawDurableUpserts(path: "\(folder)/aim-raw.db", clients: clients, seconds: EngineBenchmarks.secondsPerRun)
            bareUpserts = try StoreBenchmarks.rawBatchedUpserts(path: "\(folder)/aim-bare.db")
            try measureMemory(runs: 1)
            try measureSync()
        } catch {
            failure = BenchmarkRow(name: "the SQLite aim's measurements", failed: "\(error)")
        }
        if !syncs.isEmpty {
            let fastest = syncs.min()!
            rows.append(BenchmarkRow(name: "one fdatasync on the store's disk, the lowest of \(syncs.count) medians of 200", value: .microseconds(fastest * 1e6, decimals: 0),
                                     comparison: "ceiling of \(clients) synchronous writers: \(clients) ÷ t = \(StoreBenchmarks.rate(Double(clients) / fastest)); medians "
                                         + syncs.map { String(format: "%.0f µs", $0 * 1e6) }.joined(separator: ", ")))
        }
        if let best = memoryRuns.max(by: { $0.rate < $1.rate }) {
            rows.append(BenchmarkRow(name: "engine location updates, memory store, \(clients) writers, the highest of \(memoryRuns.count)", value: .perSecond(best.rate),
                                     comparison: "ceiling of the engine's own CPU (the same work without durability); \(EngineBenchmarks.runsText(memoryRuns.map(\.rate))); \(best.costText)"))
        }
        guard failure == nil, let fastest = syncs.min(), let best = memoryRuns.max(by: { $0.rate < $1.rate }), let unsynced, let durable, let rawSQLite,
              let bareUpserts else {
            let failed = rows + [failure].compactMap { $0 }
            return { _ in failed }
        }
        let lower = min(Double(clients) / fastest, best.rate)
        let bound = SQLiteCommitBound(writers: clients, cores: ProcessInfo.processInfo.activeProcessorCount, fsync: fastest,
                                      upsert: 1 / bareUpserts, engine: best.cpuMicroseconds / 1e6)
        rows.append(BenchmarkRow(name: "the most SQLite's own commits and fsyncs allow \(clients) writers, with no hand-off cost", value: .perSecond(bound.rate),
                                 comparison: bound.explanation + String(format: ": %.0f%% of the lower ceiling; ", bound.rate / lower * 100)
                                     + (bound.rate < lower / 2 ? "the aim (50%) lies above it on this machine" : "the aim (50%) lies below it")))
        rows.append(BenchmarkRow(name: "engine location updates, sqlite, not durable, \(clients) writers", value: .perSecond(unsynced.run.rate),
                                 comparison: String(format: "the same work without the fsync, the durable rate's own bound: %.0f%% of the lower ceiling; %.1f commits per transaction; ",
                                                    unsynced.run.rate / lower * 100, unsynced.counts.batchesPerTransaction) + unsynced.run.costText))
        rows.append(BenchmarkRow(name: "raw durable single-row upserts into SQLite, \(clients) clients (no engine)", value: .perSecond(rawSQLite),
                                 comparison: String(format: "an upsert, a commit and an fsync each, one transaction at a time as SQLite runs them: %.0f%% of the lower ceiling", rawSQLite / lower * 100)))
        let rate = durable.run.rate
        // Durable commits cannot outrun their fsyncs: a rate above 8 ÷ t means the disk was busier
        // while t was timed (another process flushing) than during the run, and t is no ceiling.
        let verdict = rate > Double(clients) / fastest ? "no verdict: above the fsync ceiling, so the disk was busier when fsync was timed"
            : rate / lower >= 0.5 ? "met" : "not met"
        let comparison = String(format: "%.0f%% of the lower ceiling (aim >= 50%%: %@); %.0f%% of the most SQLite's commits allow; %.1f commits per fsync; %@; %.0f%% of not durable; ",
                                rate / lower * 100, verdict, rate / bound.rate * 100, durable.counts.batchesPerTransaction,
                                EngineBenchmarks.commonestSizes(durable.counts), rate / unsynced.run.rate * 100) + durable.run.costText
            + String(format: "; %.0f%% of raw SQLite, %d clients", rate / rawSQLite * 100, clients)
        let measured = rows
        return { postgres in
            var text = comparison
            if let postgres {
                text += String(format: "; %.0f%% of raw PostgreSQL, %d clients (aim >= 100%%: %@)",
                               rate / postgres * 100, clients, rate >= postgres ? "met" : "not met")
            }
            return measured + [BenchmarkRow(name: "engine location updates, sqlite, durable, \(clients) writers", value: .perSecond(rate), comparison: text)]
        }
    }

    /// The highest rate `writers` synchronous writers can reach through SQLite's own group commit,
    /// in which each group's COMMIT also runs its fsync while holding the write lock, so that groups
    /// run one after another, each for at least t + g·s (an fsync t, SQLite's bare upsert s per
    /// commit). Either the writer thread takes whoever waits as soon as a group ends: the writers
    /// then split into two alternating halves and each group holds W ÷ 2, at W/2 ÷ (t + W/2·s); or it
    /// waits for all W to come back, whose turn-around, the engine's own CPU e per update on c cores,
    /// adds W·e ÷ c to every cycle: W ÷ (t + W·s + W·e ÷ c). Waking a writer and handing work to the
    /// writer thread are counted as free, so a real store stays below this.
    struct SQLiteCommitBound {
        var writers: Int
        var cores: Int
        /// One fdatasync, in seconds.
        var fsync: Double
        /// SQLite's own work for one upsert in a large transaction, in seconds.
        var upsert: Double
        /// The engine's CPU per update without durability (the memory store's), in seconds.
        var engine: Double

        var halves: Double {
            let half = Double(writers) / 2
            return half / (fsync + half * upsert)
        }
        var gathered: Double {
            let w = Double(writers)
            return w / (fsync + w * upsert + w * engine / Double(max(1, cores)))
        }
        var rate: Double { max(halves, gathered) }

        /// "max(4 ÷ (t + 4s), 8 ÷ (t + 8s + 8e ÷ 2)) with t = 84 µs, s = 2.8 µs, e = 15.7 µs".
        var explanation: String {
            let half = writers / 2
            return String(format: "max(%d ÷ (t + %ds), %d ÷ (t + %ds + %de ÷ %d)) with t = %.0f µs (fdatasync), s = %.1f µs (an upsert in one large transaction), e = %.1f µs (the memory store's CPU per update)",
                          half, half, writers, writers, writers, cores, fsync * 1e6, upsert * 1e6, engine * 1e6)
        }
    }

    /// The median time of one `fdatasync` after a 4 KiB write, in seconds, in a file of `folder`
    /// (where the SQLite files go). The writes go over a preallocated 1 MiB in turn, as SQLite's WAL
    /// is rewritten after each checkpoint, so no sync also has to record a new size.
    static func fdatasyncMedian(folder: String, samples: Int = 200) throws -> (median: Double, samples: Int) {
        let path = "\(folder)/fdatasync-\(getpid())"
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchmarkFailure(message: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd); unlink(path) }
        let page = [UInt8](repeating: 0x5a, count: 4096)
        let pages = 256
        for index in 0..<pages {
            guard pwrite(fd, page, page.count, off_t(index * page.count)) == page.count else {
                throw BenchmarkFailure(message: "\(path): \(String(cString: strerror(errno)))")
            }
        }
        guard fsync(fd) == 0 else { throw BenchmarkFailure(message: "fsync \(path): \(String(cString: strerror(errno)))") }
        var times: [Double] = []
        for index in 0..<samples {
            guard pwrite(fd, page, page.count, off_t(index % pages * page.count)) == page.count else {
                throw BenchmarkFailure(message: "\(path): \(String(cString: strerror(errno)))")
            }
            let start = DispatchTime.now().uptimeNanoseconds
            guard fdatasync(fd) == 0 else { throw BenchmarkFailure(message: "fdatasync \(path): \(String(cString: strerror(errno)))") }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        times.sort()
        return (times[times.count / 2], samples)
    }
}
