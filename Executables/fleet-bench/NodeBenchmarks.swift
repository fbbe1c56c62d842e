import FleetCLI
import Foundation
import Synchronization
import ThrowawayPostgres

/// `fleet-bench nodes`: GetTrip and UpdateVehicle through 1, 2 and 4 `fleet-admin serve` nodes on
/// one PostgreSQL, each node, PostgreSQL and the load generator (wrk) a machine in miniature of its
/// own (`NodeMachines`: a network namespace and a CPU quota each). The nodes get a small quota
/// (0.2 CPU each by default) and PostgreSQL and wrk none, so that on a machine of two cores the
/// nodes, not the database or the load generator, bound the rate: N nodes against one node at the
/// same quota is then what adding machines gives, as long as the database keeps up.
///
/// Reported: each rate and its ratio to one node; the nodes' and PostgreSQL's CPU per call, and
/// from PostgreSQL's the number of nodes one database core carries before the curve bends; and
/// UpdateVehicle on one node with a network delay between node and database against without,
/// alternated, with the node's CPU per call on each side and the commits per write transaction
/// PostgreSQL saw (the store's batches).
enum NodeBenchmarks {
    struct Settings {
        var nodeCounts = [1, 2, 4]
        /// Seconds of each load: a node's quota is enforced per 100 ms period, and with 5 s loads
        /// the one-node baseline moved by up to a third between runs on an idle machine.
        var seconds = 20
        var warmUpSeconds = 2
        var nodeQuota = 0.2
        var databaseQuota: Double?
        var delayMilliseconds = 0.5
    }

    /// One load's figures.
    struct Load {
        var rate: Double
        var p99: String
        var errors: Int
        /// CPU per call, in seconds.
        var nodeCPU: Double
        var databaseCPU: Double
        /// Write transactions PostgreSQL began during the load (transaction IDs taken).
        var transactions: Double

        /// The mean of two loads of the same setup (p99: the worse).
        func averaged(with other: Load) -> Load {
            Load(rate: (rate + other.rate) / 2, p99: PostgresBenchmarks.milliseconds(p99) >= PostgresBenchmarks.milliseconds(other.p99) ? p99 : other.p99,
                 errors: errors + other.errors, nodeCPU: (nodeCPU + other.nodeCPU) / 2, databaseCPU: (databaseCPU + other.databaseCPU) / 2,
                 transactions: (transactions + other.transactions) / 2)
        }
    }

    struct Outcome {
        var settings: Settings
        var getTrip: [Int: Load] = [:]
        var updateVehicle: [Int: Load] = [:]
        /// UpdateVehicle on one node with the delay, and without it in loads alternated with those.
        var delayedUpdate: Load?
        var undelayedUpdate: Load?
        /// What made the delay: "tc netem", or "a relay" (`DelayRelay`) where the kernel has no netem.
        var delayBy = ""

        func ratio(_ loads: [Int: Load], _ nodes: Int) -> Double? {
            guard let one = loads[1], let many = loads[nodes], one.rate > 0 else { return nil }
            return many.rate / one.rate
        }
        /// The lower of GetTrip's and UpdateVehicle's ratios for `nodes` nodes.
        func lowerRatio(_ nodes: Int) -> Double? {
            let both = [ratio(getTrip, nodes), ratio(updateVehicle, nodes)].compactMap { $0 }
            return both.count == 2 ? both.min() : nil
        }
        /// UpdateVehicle's rate on one node with the delay against without (the loads alternated with it).
        var delayRatio: Double? {
            guard let delayed = delayedUpdate, let plain = undelayedUpdate, plain.rate > 0 else { return nil }
            return delayed.rate / plain.rate
        }
        /// Commits per write transaction: at least the store's mean batch (the publisher's NOTIFY
        /// transactions take transaction IDs too).
        static func commitsPerTransaction(_ load: Load?, seconds: Int) -> Double? {
            guard let load, load.transactions > 0 else { return nil }
            return load.rate * Double(seconds) / load.transactions
        }
        /// Nodes one database core carries at one node's rate, by PostgreSQL's CPU per call.
        static func nodesPerDatabaseCore(_ loads: [Int: Load]) -> Double? {
            guard let one = loads[1], let most = loads.max(by: { $0.key < $1.key })?.value, most.databaseCPU > 0, one.rate > 0 else { return nil }
            return 1 / (most.databaseCPU * one.rate)
        }

        var json: String {
            func number(_ value: Double?, _ format: String = "%.3f") -> String { value.map { String(format: format, $0) } ?? "null" }
            var fields: [(String, String)] = [
                ("twoNodesRatio", number(lowerRatio(2))),
                ("fourNodesRatio", number(lowerRatio(4))),
                ("delayRatio", number(delayRatio)),
                ("delayMilliseconds", number(delayedUpdate == nil ? nil : settings.delayMilliseconds)),
                ("commitsPerTransaction", number(Self.commitsPerTransaction(undelayedUpdate ?? updateVehicle[1], seconds: settings.seconds), "%.2f")),
                ("commitsPerTransactionDelayed", number(Self.commitsPerTransaction(delayedUpdate, seconds: settings.seconds), "%.2f")),
                ("nodeQuota", number(settings.nodeQuota, "%.2f")),
                ("getTripNodesPerDatabaseCore", number(Self.nodesPerDatabaseCore(getTrip), "%.1f")),
                ("updateVehicleNodesPerDatabaseCore", number(Self.nodesPerDatabaseCore(updateVehicle), "%.1f")),
            ]
            for (call, loads) in [("getTrip", getTrip), ("updateVehicle", updateVehicle)] {
                for (nodes, load) in loads.sorted(by: { $0.key < $1.key }) {
                    fields.append(("\(call)Rate\(nodes)", number(load.rate, "%.0f")))
                    fields.append(("\(call)Errors\(nodes)", String(load.errors)))
                    fields.append(("\(call)DatabaseMicrosecondsPerCall\(nodes)", number(load.databaseCPU * 1e6, "%.0f")))
                    fields.append(("\(call)NodeMicrosecondsPerCall\(nodes)", number(load.nodeCPU * 1e6, "%.0f")))
                }
            }
            if let delayedUpdate, let undelayedUpdate {
                fields.append(("updateVehicleRateDelayed", number(delayedUpdate.rate, "%.0f")))
                fields.append(("updateVehicleRateUndelayed", number(undelayedUpdate.rate, "%.0f")))
                fields.append(("updateVehicleNodeMicrosecondsPerCallDelayed", number(delayedUpdate.nodeCPU * 1e6, "%.0f")))
                fields.append(("updateVehicleNodeMicrosecondsPerCallUndelayed", number(undelayedUpdate.nodeCPU * 1e6, "%.0f")))
                fields.append(("delayBy", "\"\(delayBy)\""))
            }
            return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }

        var rows: [BenchmarkRow] {
            var rows: [BenchmarkRow] = []
            let quota = String(format: "%.2f CPU a node, PostgreSQL %@, wrk unlimited", settings.nodeQuota,
                               settings.databaseQuota.map { String(format: "%.2f CPU", $0) } ?? "unlimited")
            for (call, loads, aims) in [("GetTrip", getTrip, [2: 1.8, 4: 3.2]), ("UpdateVehicle", updateVehicle, [2: 1.8, 4: 3.2])] {
                for (nodes, load) in loads.sorted(by: { $0.key < $1.key }) {
                    var comparison = "p99 \(load.p99)" + (load.errors > 0 ? "; \(load.errors) non-2xx" : "")
                    let ratio = nodes > 1 ? self.ratio(loads, nodes) : nil
                    if let ratio {
                        comparison += String(format: "; %.2fx 1 node", ratio) + (aims[nodes].map { String(format: " (aim >= %.1fx: %@)", $0, ratio >= $0 ? "met" : "not met") } ?? "")
                    } else {
                        comparison += "; the mean of a load first and one last; " + quota
                    }
                    comparison += String(format: "; CPU per call: nodes %.0f µs, PostgreSQL %.0f µs", load.nodeCPU * 1e6, load.databaseCPU * 1e6)
                    rows.append(BenchmarkRow(name: "\(call) over HTTP, \(nodes) node\(nodes == 1 ? "" : "s") on one PostgreSQL, machines apart",
                                             value: .perSecond(load.rate), comparison: comparison, ratio: ratio, baseline: "1 node"))
                }
                if let bend = Self.nodesPerDatabaseCore(loads) {
                    rows.append(BenchmarkRow(name: "  \(call): nodes one PostgreSQL core carries", value: .plain(bend, decimals: 1),
                                             comparison: "one node's rate × PostgreSQL's CPU per call at the most nodes: where the curve bends for each core PostgreSQL has"))
                }
            }
            if let delayedUpdate, let undelayedUpdate, let ratio = delayRatio {
                let plain = Self.commitsPerTransaction(undelayedUpdate, seconds: settings.seconds) ?? 0
                let delayed = Self.commitsPerTransaction(delayedUpdate, seconds: settings.seconds) ?? 0
                rows.append(BenchmarkRow(name: String(format: "UpdateVehicle, 1 node, %.1f ms each way between node and PostgreSQL", settings.delayMilliseconds),
                                         value: .perSecond(delayedUpdate.rate),
                                         comparison: String(format: "%.0f%% of %.0f/s without delay (aim >= 80%%: %@; each the mean of two loads, alternated); commits per write transaction %.1f with the delay, %.1f without; node CPU per call %.0f µs with, %.0f µs without; p99 %@; delay by %@",
                                                            ratio * 100, undelayedUpdate.rate, ratio >= 0.8 ? "met" : "not met", delayed, plain,
                                                            delayedUpdate.nodeCPU * 1e6, undelayedUpdate.nodeCPU * 1e6, delayedUpdate.p99, delayBy),
                                         ratio: ratio, baseline: "1 node without delay"))
            }
            return rows
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// wrk's connections to each node: enough for a node's commit threads to find writes queued to
    /// batch (8 commit threads on the default pool), few enough that four nodes' commits do not
    /// crowd PostgreSQL's two cores here (50 a node gave four nodes 2.6× one node on updates, with
    /// PostgreSQL's CPU per update doubled).
    static let connectionsPerNode = 16

    /// Why the group cannot run here, nil when it can.
    static func skipReason() -> String? {
        if let reason = NodeMachines.unavailableReason() { return reason }
        if !PostgresCluster.isInstalled { return "PostgreSQL 15 is not installed (make setup installs it)" }
        if HTTPBenchmarks.which("wrk") == nil { return "wrk is not installed (make bench installs it)" }
        return nil
    }

    private static func progress(_ message: String) {
        FileHandle.standardError.write(Data("fleet-bench nodes: \(message)\n".utf8))
    }

    /// The machines of the run in progress, removed on SIGTERM or SIGINT too.
    private static let running = Mutex<NodeMachines?>(nil)
    /// Watches SIGTERM and SIGINT once the first run starts (FleetCLI's SignalWatcher).
    private static let watcher = Mutex<SignalWatcher?>(nil)
    /// Set once a signal stops the run: the loads then fail, and the handler, not they, ends the process.
    static let interrupted = Atomic(false)

    private static func stopOnSignals() {
        watcher.withLock { watching in
            guard watching == nil else { return }
            watching = SignalWatcher(signals: [SIGTERM, SIGINT], queue: .global()) { number in
                interrupted.store(true, ordering: .relaxed)
                running.withLock { $0 }?.stop()
                exit(128 + number)
            }
        }
    }

    static func run(_ settings: Settings) throws -> Outcome {
        guard let wrkPath = HTTPBenchmarks.which("wrk") else { throw Failure(description: "wrk is not installed") }
        stopOnSignals()
        let most = settings.nodeCounts.max() ?? 1
        let machines = try NodeMachines(nodes: most, nodeQuota: settings.nodeQuota, databaseQuota: settings.databaseQuota, loadQuota: nil)
        running.withLock { $0 = machines }
        defer {
            running.withLock { $0 = nil }
            machines.stop()
        }
        let folder = machines.folder
        progress("machines up in \(machines.run): PostgreSQL \(machines.database.address), wrk \(machines.loadGenerator.address), nodes "
                 + machines.nodes.map(\.address).joined(separator: ", "))
        let cluster = try PostgresCluster(durability: .machineCrash, listen: machines.database.address, trustedClients: NodeMachines.network,
                                          launcher: [machines.database.launcher], folder: "\(folder)/postgres")
        defer { cluster.stop() }
        let store = try cluster.createDatabase("nodes")
        // The fleet the loads use, made through a node in this process's namespace on PostgreSQL's socket.
        try HTTPBenchmarks.preparedServer(folder: folder, store: cluster.socketURL(database: "nodes")).stop()
        var nodes: [BenchServer] = []
        defer { nodes.forEach { $0.stop() } }
        for machine in machines.nodes {
            // --insecure: the nodes listen on the benchmark's own network, which only wrk reaches.
            nodes.append(try BenchServer(folder: folder, store: store, extraArguments: ["--insecure"], listen: "\(machine.address):8080",
                                         launcher: machine.launcher))
        }
        let wrk = "\(folder)/wrk.sh"
        _ = FileManager.default.createFile(atPath: wrk, contents: Data("#!/bin/sh\nexec \(machines.loadGenerator.launcher) \(wrkPath) \"$@\"\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        let probe = try PostgresBenchmarks.RawConnection("host=\(cluster.folder) port=\(cluster.port) user=\(PostgresCluster.user) dbname=nodes")
        func transactionCounter() -> Double {
            Double((try? probe.value("SELECT pg_snapshot_xmax(pg_current_snapshot())::text")) ?? "") ?? 0
        }

        // Each node gets the same clients, alone or beside others: the same load per node.
        let connectionsPerNode = Self.connectionsPerNode
        func measure(_ used: [BenchServer], path: String, scripts: [String?]) throws -> Load {
            let count = used.count
            _ = PostgresBenchmarks.load(wrk, nodes: used, path: path, scripts: scripts, folder: folder, duration: "\(settings.warmUpSeconds)s",
                                     connectionsPerNode: connectionsPerNode)
            func nodeSeconds() -> Double { used.map { ProcessCPU.seconds($0.process.processIdentifier) }.reduce(0, +) }
            func databaseSeconds() -> Double { cluster.postmaster.map { ProcessCPU.postgresSeconds(postmaster: $0) } ?? 0 }
            let before = (node: nodeSeconds(), database: databaseSeconds(), transactions: transactionCounter())
            guard let result = PostgresBenchmarks.load(wrk, nodes: used, path: path, scripts: scripts, folder: folder, duration: "\(settings.seconds)s",
                                                      connectionsPerNode: connectionsPerNode) else {
                throw Failure(description: "wrk did not report (\(count) node\(count == 1 ? "" : "s"), \(path))")
            }
            let calls = max(1, result.rate * Double(settings.seconds))
            return Load(rate: result.rate, p99: result.p99, errors: result.errors,
                        nodeCPU: (nodeSeconds() - before.node) / calls, databaseCPU: (databaseSeconds() - before.database) / calls,
                        transactions: transactionCounter() - before.transactions - 1)
        }

        var outcome = Outcome(settings: settings)
        let getTrip = "/v1/providers/\(HTTPBenchmarks.provider)/trips/t1"
        // One node runs first and again last, and its two loads make the baseline: on a shared host
        // a single load of it may fall on another process's burst and flatter every ratio.
        func measureAll(_ path: String, _ scripts: (Int) -> [String?]) throws -> [Int: Load] {
            var loads: [Int: Load] = [:]
            for count in settings.nodeCounts + [1] {
                progress("\(path == "/" ? "UpdateVehicle" : "GetTrip"), \(count) node\(count == 1 ? "" : "s")")
                let load = try measure(Array(nodes.prefix(count)), path: path, scripts: scripts(count))
                loads[count] = loads[count].map { $0.averaged(with: load) } ?? load
            }
            return loads
        }
        outcome.getTrip = try measureAll(getTrip) { Array(repeating: nil, count: $0) }
        // Each node updates vehicles of its own, as behind a balancer that keeps a vehicle on one node.
        func updateScripts(_ count: Int) -> [String?] {
            (0..<count).map { index in HTTPBenchmarks.updates(ofVehicles: (index * 100 / count)..<((index + 1) * 100 / count)) }
        }
        outcome.updateVehicle = try measureAll("/", updateScripts)
        if settings.delayMilliseconds > 0 {
            let (plain, delayed, delayBy) = try measureDelay(settings, machines: machines, cluster: cluster, store: store, node: nodes[0], folder: folder) {
                try measure($0, path: "/", scripts: updateScripts(1))
            }
            (outcome.undelayedUpdate, outcome.delayedUpdate, outcome.delayBy) = (plain, delayed, delayBy)
        }
        return outcome
    }

    /// UpdateVehicle on one node without and with the delay, alternated (without, with, with,
    /// without) so that both sides see the same share of the host's other load: the mean of each
    /// side's two loads, and what made the delay. `measure` runs one load on the nodes given.
    ///
    /// With netem both sides are loads of `node`. With the relay, the delayed side is a node of
    /// its own, and so is the side without: two processes started together on `node`'s machine,
    /// one on `store`, one through the relay, so that neither is the one that already served every
    /// load before (a fresh delayed node against it ran at 114% in one alternated run).
    private static func measureDelay(_ settings: Settings, machines: NodeMachines, cluster: PostgresCluster, store: String, node: BenchServer,
                                     folder: String, measure: @escaping ([BenchServer]) throws -> Load) throws -> (plain: Load, delayed: Load, delayBy: String) {
        var plainNode = node
        let delayedLoad: () throws -> Load
        let delayBy: String
        var stops: [() -> Void] = []
        defer { stops.reversed().forEach { $0() } }
        do {
            // Whether netem takes here: set once and removed again.
            try machines.setDatabaseDelay(milliseconds: settings.delayMilliseconds)
            try machines.setDatabaseDelay(milliseconds: 0)
            delayBy = "tc netem"
            delayedLoad = {
                try machines.setDatabaseDelay(milliseconds: settings.delayMilliseconds)
                defer { try? machines.setDatabaseDelay(milliseconds: 0) }
                return try measure([node])
            }
        } catch {
            // No netem in this kernel: the node's machine gets a second node whose connections to
            // PostgreSQL go through a relay that holds them as the link would.
            progress("tc netem did not take (\(error)); the delay is a relay's")
            let relayPort = cluster.port + 1
            let relay = try DelayRelay(namespace: machines.database.namespace, address: machines.database.address, port: UInt16(relayPort),
                                       target: UInt16(cluster.port), delay: settings.delayMilliseconds / 1000)
            stops.append(relay.stop)
            let delayedNode = try BenchServer(folder: folder, store: "postgres://\(PostgresCluster.user)@\(machines.database.address):\(relayPort)/nodes",
                                              extraArguments: ["--insecure"], listen: "\(machines.nodes[0].address):8081", launcher: machines.nodes[0].launcher)
            stops.append(delayedNode.stop)
            plainNode = try BenchServer(folder: folder, store: store, extraArguments: ["--insecure"], listen: "\(machines.nodes[0].address):8082",
                                        launcher: machines.nodes[0].launcher)
            stops.append(plainNode.stop)
            delayBy = relay.isRealTime ? "a relay (real-time threads)" : "a relay (ordinary threads: real-time refused)"
            delayedLoad = { try measure([delayedNode]) }
        }
        progress(String(format: "UpdateVehicle, 1 node, %.2f ms each way to PostgreSQL by %@ (without, with, with, without)",
                        settings.delayMilliseconds, delayBy))
        let plainFirst = try measure([plainNode])
        let delayedFirst = try delayedLoad()
        let delayedLast = try delayedLoad()
        let plainLast = try measure([plainNode])
        return (plainFirst.averaged(with: plainLast), delayedFirst.averaged(with: delayedLast), delayBy)
    }
}
