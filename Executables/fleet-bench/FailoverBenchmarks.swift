import FleetBackoff
import FleetCLI
import FleetConcurrency
import FleetErrors
import FleetModel
import FleetStore
import Foundation
import PostgresStore
import RESTClient
import Synchronization

/// `fleet-bench failover`: what clients of two server nodes see when their PostgreSQL cluster
/// (Patroni, a primary with a synchronous standby, `FailoverCluster`) fails over.
///
/// Writers send CreateVehicle through both nodes without pause, each create a vehicle of its own,
/// so that every acknowledged write can be looked for afterwards. A writer whose call fails for a
/// retryable reason (UNAVAILABLE) sends the same create again after a short backoff, as a client
/// riding out the failover would; ALREADY_EXISTS on such a retry means an earlier attempt was
/// applied, and counts as acknowledged. Meanwhile one vehicle on a trip moves every 200 ms, and
/// each node holds a `:watch` of its trip.
///
/// First the leader's postmaster is killed (SIGKILL); once the cluster is whole again (the old
/// primary back as the synchronous standby), a planned `patronictl switchover`. Reported:
/// - crash recovery: from the kill until the first acknowledgment after the longest stretch
///   without any (the outage the kill caused);
/// - switchover recovery: that longest stretch after the switchover started (writes go on being
///   acknowledged until the primary is demoted);
/// - p50, p99 and the longest write latency (first attempt to acknowledgment, retries included) of
///   the writes started from 5 s before each event to 5 s after writes resumed;
/// - acknowledged writes lost: acknowledged creates not found when read back from the new primary
///   afterwards (the requirement: none);
/// - the watch streams that ended (none should) and whether each node's watch delivered the moving
///   vehicle's last acknowledged position;
/// - whether driver-report (reporting a vehicle of its own through the first node) and
///   consumer-follow (following the watched trip through the second) rode it out by themselves:
///   still running, the reporter's last location stored, the follower showing the last move.
enum FailoverBenchmarks {
    static let provider = "failover-bench"

    /// What one run measured.
    struct Outcome {
        var acknowledgedWrites = 0
        var acknowledgedWritesLost = 0
        var crashRecoverySeconds = 0.0
        var switchoverRecoverySeconds = 0.0
        var switchoverCommandSeconds = 0.0
        var crashLatency = (p50: 0.0, p99: 0.0, max: 0.0)
        var switchoverLatency = (p50: 0.0, p99: 0.0, max: 0.0)
        var retriedAnswers = 0
        var otherErrors: [String] = []
        var watchStreamsEnded = 0
        var watchesCaughtUp = false
        var tools = FailoverTools.Outcome()
        var writers = 0

        /// One JSON line; times in seconds, latencies in milliseconds.
        var json: String {
            func number(_ value: Double) -> String { String(format: "%.3f", value) }
            let fields: [(String, String)] = [
                ("acknowledgedWritesLost", String(acknowledgedWritesLost)),
                ("crashRecoverySeconds", number(crashRecoverySeconds)),
                ("switchoverRecoverySeconds", number(switchoverRecoverySeconds)),
                ("switchoverCommandSeconds", number(switchoverCommandSeconds)),
                ("acknowledgedWrites", String(acknowledgedWrites)),
                ("crashWriteLatencyP50Milliseconds", number(crashLatency.p50 * 1000)),
                ("crashWriteLatencyP99Milliseconds", number(crashLatency.p99 * 1000)),
                ("crashWriteLatencyMaxMilliseconds", number(crashLatency.max * 1000)),
                ("switchoverWriteLatencyP50Milliseconds", number(switchoverLatency.p50 * 1000)),
                ("switchoverWriteLatencyP99Milliseconds", number(switchoverLatency.p99 * 1000)),
                ("switchoverWriteLatencyMaxMilliseconds", number(switchoverLatency.max * 1000)),
                ("retriedAnswers", String(retriedAnswers)),
                ("otherErrors", String(otherErrors.count)),
                ("watchStreamsEnded", String(watchStreamsEnded)),
                ("watchesCaughtUp", watchesCaughtUp ? "true" : "false"),
                ("driverReportCaughtUp", tools.driverReportCaughtUp ? "true" : "false"),
                ("consumerFollowCaughtUp", tools.consumerFollowCaughtUp ? "true" : "false"),
                ("consumerFollowRecoveringErrors", String(tools.consumerFollowRecoveringErrors)),
                ("consumerFollowOtherErrors", String(tools.consumerFollowOtherErrors)),
                ("nodes", "2"),
                ("writers", String(writers)),
            ]
            return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }

        var rows: [BenchmarkRow] {
            [
                BenchmarkRow(name: "failover: writes acknowledged again after SIGKILL of the primary", value: .seconds(crashRecoverySeconds),
                             comparison: String(format: "write latency around it p50 %.1f ms, p99 %.0f ms, max %.1f s; aim <= 15 s",
                                                crashLatency.p50 * 1000, crashLatency.p99 * 1000, crashLatency.max)),
                BenchmarkRow(name: "failover: writes unacknowledged during patronictl switchover", value: .seconds(switchoverRecoverySeconds),
                             comparison: String(format: "write latency around it p50 %.1f ms, p99 %.0f ms, max %.1f s; the command took %.1f s; aim <= 2 s",
                                                switchoverLatency.p50 * 1000, switchoverLatency.p99 * 1000, switchoverLatency.max, switchoverCommandSeconds)),
                BenchmarkRow(name: "failover: acknowledged writes lost", value: .count(acknowledgedWritesLost),
                             comparison: "of \(acknowledgedWrites) acknowledged creates through 2 nodes, \(writers) writers; \(retriedAnswers) retryable answers, "
                                 + "\(otherErrors.count) others; watch streams ended \(watchStreamsEnded), caught up: \(watchesCaughtUp); "
                                 + "driver-report caught up: \(tools.driverReportCaughtUp), consumer-follow: \(tools.consumerFollowCaughtUp) "
                                 + "(\(tools.consumerFollowRecoveringErrors) recovering errors, \(tools.consumerFollowOtherErrors) others); aim 0 lost"),
            ]
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func progress(_ message: String) {
        FileHandle.standardError.write(Data("fleet-bench failover: \(message)\n".utf8))
    }

    /// The cluster of the run in progress, stopped by SIGTERM or SIGINT too.
    private static let running = Mutex<FailoverCluster?>(nil)
    private static let runningTools = Mutex<FailoverTools?>(nil)
    /// Watches SIGTERM and SIGINT once the first run starts (FleetCLI's SignalWatcher).
    private static let watcher = Mutex<SignalWatcher?>(nil)

    /// Stops the cluster and exits when the run is interrupted (a test's time limit sends SIGTERM).
    private static func stopOnSignals() {
        watcher.withLock { watching in
            guard watching == nil else { return }
            watching = SignalWatcher(signals: [SIGTERM, SIGINT], queue: .global()) { number in
                runningTools.withLock { $0 }?.stop()
                running.withLock { $0 }?.stop()
                exit(128 + number)
            }
        }
    }

    static func run(writers: Int, steadySeconds: Double) throws -> Outcome {
        guard FailoverCluster.isInstalled else { throw Failure(description: "Patroni, etcd or PostgreSQL 15 is missing: run `make setup`") }
        stopOnSignals()
        let cluster = try FailoverCluster()
        running.withLock { $0 = cluster }
        progress("cluster up: \(cluster.storeURL)")
        defer {
            running.withLock { $0 = nil }
            cluster.stop()
        }
        let folder = cluster.folder
        let nodes = try (0..<2).map { _ in try BenchServer(folder: folder, store: cluster.storeURL) }
        defer { nodes.forEach { $0.stop() } }
        let load = try FailoverLoad(nodes: nodes.map(\.url), writers: writers)
        load.start()
        defer { load.stop() }
        let tools = try FailoverTools(nodes: nodes.map(\.url))
        runningTools.withLock { $0 = tools }
        defer {
            runningTools.withLock { $0 = nil }
            tools.stop()
        }

        var outcome = Outcome()
        outcome.writers = writers
        Thread.sleep(forTimeInterval: steadySeconds)
        // A crash.
        let crashed = try cluster.leader()
        let crashTime = FailoverLoad.now()
        try cluster.crash(crashed)
        progress("killed \(crashed.name)'s postmaster")
        try load.waitForAcknowledgment(after: crashTime, timeout: 120)
        progress("writes acknowledged again after \(String(format: "%.1f", FailoverLoad.now() - crashTime)) s")
        try cluster.waitUntilHealthy(timeout: 120)
        progress("\(crashed.name) back as the synchronous standby after \(String(format: "%.1f", FailoverLoad.now() - crashTime)) s")
        Thread.sleep(forTimeInterval: steadySeconds)
        // A planned switchover.
        let switchStart = FailoverLoad.now()
        try cluster.switchover()
        let switchEnd = FailoverLoad.now()
        progress("switched over in \(String(format: "%.1f", switchEnd - switchStart)) s")
        try load.waitForAcknowledgment(after: switchEnd, timeout: 60)
        Thread.sleep(forTimeInterval: steadySeconds)
        load.stop()

        let acks = load.acknowledgments
        let crashGap = FailoverLoad.longestGap(in: acks, from: crashTime, until: switchStart)
        outcome.crashRecoverySeconds = crashGap.end - crashTime
        let switchGap = FailoverLoad.longestGap(in: acks, from: switchStart, until: .infinity)
        outcome.switchoverRecoverySeconds = switchGap.end - switchGap.start
        outcome.switchoverCommandSeconds = switchEnd - switchStart
        outcome.crashLatency = FailoverLoad.latencies(acks, from: crashTime - 5, until: crashGap.end + 5)
        outcome.switchoverLatency = FailoverLoad.latencies(acks, from: switchStart - 5, until: switchGap.end + 5)
        outcome.acknowledgedWrites = acks.count
        outcome.retriedAnswers = load.retriedAnswers
        outcome.otherErrors = load.otherErrors
        outcome.watchesCaughtUp = load.waitForWatchesToCatchUp(timeout: 15)
        outcome.watchStreamsEnded = load.watchStreamsEnded
        load.stopWatches()
        outcome.tools = tools.finish(timeout: 30)

        // Read back from the new primary, past every node's cache: every vehicle, a page at a time.
        let store = try PostgresStore(url: cluster.storeURL)
        defer { try? store.close() }
        var stored = Set<String>()
        var after: String?
        while true {
            let page = try store.list(.vehicle, provider: provider, afterID: after, limit: 1000)
            stored.formUnion(page.map(\.key.id))
            guard page.count == 1000, let last = page.last else { break }
            after = last.key.id
        }
        outcome.acknowledgedWritesLost = acks.filter { !stored.contains($0.id) }.count
        progress("\(acks.count) acknowledged writes read back, \(outcome.acknowledgedWritesLost) missing")
        return outcome
    }
}

extension FailoverCluster {
    /// Kills `member`'s postmaster with SIGKILL, as a crash would.
    func crash(_ member: Member) throws {
        let pidFile = (try? String(contentsOfFile: member.folder + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        guard let pid = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw Failure(description: "\(member.name) has no postmaster.pid")
        }
        guard kill(pid, SIGKILL) == 0 else { throw Failure(description: "kill \(pid): \(String(cString: strerror(errno)))") }
    }
}

/// The writers, the moving vehicle and the watches of `fleet-bench failover`.
final class FailoverLoad: Sendable {
    /// One acknowledged create: when its first attempt started and when it was acknowledged
    /// (monotonic seconds), and the vehicle it created.
    struct Acknowledgment: Sendable {
        var start: Double
        var end: Double
        var id: String
    }

    private let nodes: [String]
    private let writers: Int
    private let stopped = Atomic(false)
    private let watchesStopped = Cancellation()
    private let state = Mutex(State())
    private let finished = DispatchGroup()
    /// How writers wait between attempts: short, to measure the cluster rather than the client.
    static let backoff = Backoff(initialSeconds: 0.05, maximumSeconds: 0.5)
    static let tripName = "providers/\(FailoverBenchmarks.provider)/trips/watched"
    static let vehicleName = "providers/\(FailoverBenchmarks.provider)/vehicles/watched"

    private struct State {
        var acknowledgments: [Acknowledgment] = []
        var retriedAnswers = 0
        var otherErrors: [String] = []
        var lastMoved = 0
        var watched: [Int] = []
        var watchStreamsEnded = 0
    }

    init(nodes: [String], writers: Int) throws {
        self.nodes = nodes
        self.writers = writers
        state.withLock { $0.watched = Array(repeating: -1, count: nodes.count) }
        let client = try RESTClient(baseURL: nodes[0])
        let parent = "providers/\(FailoverBenchmarks.provider)"
        _ = try client.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "watched", vehicle: Self.vehicle(step: 0)))
        _ = try client.createTrip(CreateTripRequest(parent: parent, tripId: "watched", trip: Trip(
            vehicleId: "watched", tripType: .exclusive,
            pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)),
            dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.43)))))
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    static func vehicle(step: Int) -> Vehicle {
        Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive],
                lastLocation: VehicleLocation(location: location(step: step)),
                maximumCapacity: 4, vehicleType: VehicleType(category: .auto))
    }

    static func location(step: Int) -> LatLng {
        LatLng(latitude: 52.5 + Double(step) * 1e-5, longitude: 13.4)
    }

    /// The step a delivered trip's vehicle position stands for.
    static func step(of trip: Trip) -> Int? {
        trip.lastLocation?.location.map { Int((($0.latitude - 52.5) / 1e-5).rounded()) }
    }

    private var running: Bool { !stopped.load(ordering: .relaxed) }

    func start() {
        for writer in 0..<writers { spawn("failover-writer-\(writer)") { self.write(writer: writer) } }
        spawn("failover-mover") { self.move() }
        for node in nodes.indices { spawn("failover-watch-\(node)", joined: false) { self.watch(node: node) } }
    }

    private func spawn(_ name: String, joined: Bool = true, _ body: @escaping @Sendable () -> Void) {
        if joined { finished.enter() }
        WorkerThread.start(name: name) { [finished] in
            body()
            if joined { finished.leave() }
        }
    }

    /// Stops the writers and the mover and waits for their calls in flight.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
    }

    func stopWatches() { watchesStopped.cancel() }

    var acknowledgments: [Acknowledgment] { state.withLock { $0.acknowledgments.sorted { $0.end < $1.end } } }
    var retriedAnswers: Int { state.withLock { $0.retriedAnswers } }
    var otherErrors: [String] { state.withLock { $0.otherErrors } }
    var watchStreamsEnded: Int { state.withLock { $0.watchStreamsEnded } }

    /// Sends `call` until it is acknowledged (true), a retryable failure aside; false after another
    /// failure (recorded) or once stopped while it still fails. `applied` says whether an error after
    /// a retry means an earlier attempt was applied.
    private func untilAcknowledged(_ label: String, applied: (FleetError) -> Bool = { _ in false }, _ call: () throws -> Void) -> Bool {
        var failures = 0
        var random = SystemRandomNumberGenerator()
        while true {
            do {
                try call()
                return true
            } catch let error as FleetError where failures > 0 && applied(error) {
                return true
            } catch let error as FleetError where error.retryClass == .retryable {
                failures += 1
                state.withLock { $0.retriedAnswers += 1 }
                // Given up only long after a stop: a write in flight is seen through the failover.
                if !running && failures > 200 { return false }
                Thread.sleep(forTimeInterval: Self.backoff.delay(afterFailures: failures, using: &random))
            } catch {
                state.withLock { $0.otherErrors.append("\(label): \(error)") }
                return false
            }
        }
    }

    private func write(writer: Int) {
        guard let client = try? RESTClient(baseURL: nodes[writer % nodes.count], retry: .never) else { return }
        let parent = "providers/\(FailoverBenchmarks.provider)"
        var count = 0
        while running {
            let id = "w\(writer)-\(count)"
            count += 1
            let start = Self.now()
            let request = CreateVehicleRequest(parent: parent, vehicleId: id, vehicle: Self.vehicle(step: count))
            let acknowledged = untilAcknowledged("CreateVehicle \(id)", applied: { $0.code == .alreadyExists }) {
                _ = try client.createVehicle(request)
            }
            if acknowledged {
                let end = Self.now()
                state.withLock { $0.acknowledgments.append(Acknowledgment(start: start, end: end, id: id)) }
            }
        }
    }

    /// Moves the watched vehicle a step every 200 ms through the first node.
    private func move() {
        guard let client = try? RESTClient(baseURL: nodes[0], retry: .never) else { return }
        var step = 0
        while running {
            step += 1
            let request = UpdateVehicleRequest(name: Self.vehicleName, vehicle: Vehicle(lastLocation: VehicleLocation(location: Self.location(step: step))),
                                               updateMask: FieldMask(["lastLocation"]))
            if untilAcknowledged("UpdateVehicle", { _ = try client.updateVehicle(request) }) {
                state.withLock { $0.lastMoved = step }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// Holds a `:watch` of the trip on `node`, opening it again should it end (counted).
    private func watch(node: Int) {
        guard let client = try? RESTClient(baseURL: nodes[node], retry: .never) else { return }
        while !watchesStopped.isCancelled {
            do {
                try client.watchTrip(GetTripRequest(name: Self.tripName), cancellation: watchesStopped) { trip in
                    if let step = Self.step(of: trip) { state.withLock { $0.watched[node] = max($0.watched[node], step) } }
                }
            } catch {}
            guard !watchesStopped.isCancelled else { return }
            state.withLock { $0.watchStreamsEnded += 1 }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// Waits until each node's watch delivered the last acknowledged move, at most `timeout` seconds.
    func waitForWatchesToCatchUp(timeout: Double) -> Bool {
        let deadline = Self.now() + timeout
        while Self.now() < deadline {
            if state.withLock({ state in state.watched.allSatisfy { $0 == state.lastMoved } }) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Waits until a write first sent after `time` is acknowledged, at most `timeout` seconds.
    func waitForAcknowledgment(after time: Double, timeout: Double) throws {
        let deadline = Self.now() + timeout
        while !state.withLock({ $0.acknowledgments.contains { $0.start > time } }) {
            guard Self.now() < deadline else {
                throw FailoverBenchmarks.Failure(description: "no write acknowledged in \(Int(timeout)) s; errors: \(otherErrors.prefix(3))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The longest stretch without an acknowledgment from `from` (counted as one) to the last
    /// acknowledgment before `until`.
    static func longestGap(in acks: [Acknowledgment], from: Double, until: Double) -> (start: Double, end: Double) {
        var previous = from
        var longest = (start: from, end: from)
        for ack in acks where ack.end > from && ack.end < until {
            if ack.end - previous > longest.end - longest.start { longest = (previous, ack.end) }
            previous = ack.end
        }
        return longest
    }

    /// p50, p99 and the longest of the latencies of the writes started in `from ... until`, in seconds.
    static func latencies(_ acks: [Acknowledgment], from: Double, until: Double) -> (p50: Double, p99: Double, max: Double) {
        let sorted = acks.filter { $0.start >= from && $0.start <= until }.map { $0.end - $0.start }.sorted()
        guard let longest = sorted.last else { return (0, 0, 0) }
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], longest)
    }
}

/// driver-report and consumer-follow, the Driver and Consumer SDKs' tools, run as their users run
/// them during `fleet-bench failover`: one reports a vehicle of its own from locations fed to it,
/// the other follows the watched trip.
final class FailoverTools: @unchecked Sendable {
    struct Outcome {
        var driverReportCaughtUp = false
        var consumerFollowCaughtUp = false
        var consumerFollowRecoveringErrors = 0
        var consumerFollowOtherErrors = 0
    }

    static let vehicleName = "providers/\(FailoverBenchmarks.provider)/vehicles/reported"
    private let nodes: [String]
    private let reporter = Process()
    private let follower = Process()
    private let reporterInput = Pipe()
    private let state = Mutex((fed: 0, followed: -1, recovering: 0, other: 0, feeding: true))
    private let fed = DispatchGroup()

    init(nodes: [String]) throws {
        self.nodes = nodes
        _ = try RESTClient(baseURL: nodes[0]).createVehicle(CreateVehicleRequest(
            parent: "providers/\(FailoverBenchmarks.provider)", vehicleId: "reported", vehicle: FailoverLoad.vehicle(step: 0)))
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for tool in ["driver-report", "consumer-follow"] where !FileManager.default.isExecutableFile(atPath: products.appendingPathComponent(tool).path) {
            throw FailoverBenchmarks.Failure(description: "\(tool) is not built next to fleet-bench (\(products.path)): build every product (swift build -c release)")
        }
        reporter.executableURL = products.appendingPathComponent("driver-report")
        reporter.arguments = ["--provider", FailoverBenchmarks.provider, "--vehicle", "reported", "--transport", nodes[0],
                              "--source", "jsonl:-", "--speedup", "10"]
        reporter.standardInput = reporterInput
        reporter.standardOutput = FileHandle.nullDevice
        reporter.standardError = FileHandle(forWritingAtPath: "/dev/null")
        follower.executableURL = products.appendingPathComponent("consumer-follow")
        follower.arguments = ["watched", "--provider", FailoverBenchmarks.provider, "--transport", nodes[1], "--json",
                              "--events", "vehicleLocation,error"]
        let output = Pipe()
        follower.standardOutput = output
        follower.standardError = FileHandle.nullDevice
        try reporter.run()
        try follower.run()
        WorkerThread.start(name: "failover-follow") { [self] in read(output.fileHandleForReading) }
        fed.enter()
        WorkerThread.start(name: "failover-feed") { [self] in
            feed()
            fed.leave()
        }
    }

    /// A location every 200 ms, a step further each time, until `finish`.
    private func feed() {
        var step = 0
        while state.withLock({ $0.feeding }) {
            step += 1
            let location = FailoverLoad.location(step: step)
            reporterInput.fileHandleForWriting.write(Data("{\"lat\": \(location.latitude), \"lng\": \(location.longitude)}\n".utf8))
            state.withLock { $0.fed = step }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// consumer-follow's JSON lines: the latest position it showed, and its errors by kind.
    private func read(_ handle: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[buffer.index(after: newline)...])
                guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                let value = event["value"] as? [String: Any]
                switch event["event"] as? String {
                case "vehicleLocation":
                    if let latitude = value?["latitude"] as? Double {
                        let step = Int(((latitude - 52.5) / 1e-5).rounded())
                        state.withLock { $0.followed = step }
                    }
                case "error":
                    let recovering = value?["recovering"] as? Bool ?? false
                    state.withLock { if recovering { $0.recovering += 1 } else { $0.other += 1 } }
                default: break
                }
            }
        }
    }

    /// Stops feeding, then waits until the reporter's last location is stored and the follower
    /// showed the watched vehicle's last move, at most `timeout` seconds; both must still run.
    func finish(timeout: Double) -> Outcome {
        state.withLock { $0.feeding = false }
        fed.wait()
        let last = state.withLock { $0.fed }
        let client = try? RESTClient(baseURL: nodes[1])
        let deadline = FailoverLoad.now() + timeout
        var outcome = Outcome()
        while FailoverLoad.now() < deadline && !outcome.driverReportCaughtUp {
            let stored = try? client?.getVehicle(GetVehicleRequest(name: Self.vehicleName))
            outcome.driverReportCaughtUp = reporter.isRunning && stored?.lastLocation?.location == FailoverLoad.location(step: last)
            if !outcome.driverReportCaughtUp { Thread.sleep(forTimeInterval: 0.2) }
        }
        let moved = (try? client?.getVehicle(GetVehicleRequest(name: FailoverLoad.vehicleName)))??.lastLocation?.location
        while FailoverLoad.now() < deadline && !outcome.consumerFollowCaughtUp {
            let shown = state.withLock { $0.followed }
            outcome.consumerFollowCaughtUp = follower.isRunning && moved != nil && FailoverLoad.location(step: shown) == moved
            if !outcome.consumerFollowCaughtUp { Thread.sleep(forTimeInterval: 0.2) }
        }
        (outcome.consumerFollowRecoveringErrors, outcome.consumerFollowOtherErrors) = state.withLock { ($0.recovering, $0.other) }
        return outcome
    }

    func stop() {
        state.withLock { $0.feeding = false }
        for process in [reporter, follower] where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
