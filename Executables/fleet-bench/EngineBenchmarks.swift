import FileStore
import FleetConcurrency
import FleetEngine
import FleetModel
import FleetStore
import Foundation
import MemoryStore
import SQLiteStore
import Synchronization
import FleetRandom

/// The engine's hot paths: vehicle location updates per second over each store, and SearchVehicles
/// latency in a large fleet.
enum EngineBenchmarks {
    static let secondsPerRun = 1.5
    static let warmUpSeconds = 0.5
    static let vehiclesPerWriter = 32
    static let provider = "bench"

    /// Every row; with `only`, just the update rows whose store name contains it (no search rows).
    static func run(tempDirectory: String, baseline: Double?, only: String? = nil) -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        try? FileManager.default.createDirectory(atPath: tempDirectory, withIntermediateDirectories: true)
        let stores: [(name: String, writers: Int, open: () throws -> any Store)] = [
            ("memory", 1, { MemoryStore() }),
            ("memory", 8, { MemoryStore() }),
            ("file, durable", 1, { try FileStore(directory: "\(tempDirectory)/eng-f1", options: .init(durable: true), log: { _ in }) }),
            ("file, durable", 8, { try FileStore(directory: "\(tempDirectory)/eng-f8", options: .init(durable: true), log: { _ in }) }),
            ("file, not durable", 8, { try FileStore(directory: "\(tempDirectory)/eng-fn", options: .init(durable: false), log: { _ in }) }),
            ("sqlite, durable", 1, { try SQLiteStore(path: "\(tempDirectory)/eng-s1.db", options: .init(durable: true)) }),
            ("sqlite, durable", 8, { try SQLiteStore(path: "\(tempDirectory)/eng-s8.db", options: .init(durable: true)) }),
            ("sqlite, durable", 64, { try SQLiteStore(path: "\(tempDirectory)/eng-s64.db", options: .init(durable: true)) }),
            ("sqlite, not durable", 8, { try SQLiteStore(path: "\(tempDirectory)/eng-sn.db", options: .init(durable: false)) }),
        ]
        for run in stores where only.map({ run.name.contains($0) }) ?? true {
            let name = "engine location updates, \(run.name), \(run.writers) writer\(run.writers == 1 ? "" : "s")"
            do {
                let store = try run.open()
                defer { try? store.close() }
                var before: GroupCommitStatistics?
                let measured = try measureUpdates(Engine(store: store), writers: run.writers) {
                    before = (store as? SQLiteStore)?.groupCommitStatistics
                }
                let rate = measured.rate
                var comparison = baseline.map { String(format: "%.1f%% of raw batched SQLite upserts; ", rate / $0 * 100) } ?? ""
                comparison += measured.costText
                if let before, let sqlite = store as? SQLiteStore {
                    // How writers share transactions and fsyncs, and the commonest group size.
                    let counts = sqlite.groupCommitStatistics.since(before)
                    comparison += String(format: "; %.1f commits per transaction; ", counts.batchesPerTransaction) + commonestSizes(counts)
                }
                rows.append(BenchmarkRow(name: name, value: .perSecond(rate), comparison: comparison,
                                         ratio: baseline.map { rate / $0 }, baseline: "raw SQLite upserts, one transaction"))
            } catch {
                rows.append(BenchmarkRow(name: name, failed: "\(error)"))
            }
        }
        for count in [10_000, 100_000] where only == nil {
            do {
                let store = try SQLiteStore(path: "\(tempDirectory)/search-\(count).db", options: .init(durable: false))
                defer { try? store.close() }
                rows += try searchLatency(store: store, vehicles: count)
            } catch {
                rows.append(BenchmarkRow(name: "SearchVehicles, \(count) vehicles", failed: "\(error)"))
            }
        }
        try? FileManager.default.removeItem(atPath: tempDirectory)
        return rows
    }

    static func vehicle(at point: LatLng) -> Vehicle {
        Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive, .shared], lastLocation: VehicleLocation(location: point),
                maximumCapacity: 4, vehicleType: VehicleType(category: .auto))
    }

    /// The three commonest numbers of commits per transaction, with their share of transactions:
    /// closed-loop writers that alternate between two groups show a peak at half their number.
    static func commonestSizes(_ counts: GroupCommitStatistics) -> String {
        let total = Double(max(1, counts.transactions))
        let top = counts.groupSizes.sorted { $0.value > $1.value }.prefix(3)
        return "groups of " + top.map { String(format: "%d: %.0f%%", $0.key, Double($0.value) / total * 100) }.joined(separator: ", ")
    }

    /// What one run of `measureUpdates` saw.
    struct UpdateRun {
        /// Updates per second after the warm-up.
        var rate: Double
        /// Process CPU time (user and system, every thread) per update, in microseconds.
        var cpuMicroseconds: Double
        /// Context switches (voluntary and not) of the process per update: a lock convoy shows here.
        var switches: Double
        /// The database server's CPU time per update, in microseconds, when `measureUpdates` was given
        /// its clock; 0 otherwise.
        var serverMicroseconds: Double = 0

        /// "CPU 16.2 µs, 0.07 context switches per update".
        var costText: String {
            String(format: "CPU %.1f µs, %.2f context switches per update", cpuMicroseconds, switches)
        }
    }

    /// UpdateVehicle with `lastLocation` as the Driver SDK sends it, from `writers` threads, each on its own vehicles;
    /// `started` runs once the vehicles exist, before the writers start.
    static func updatesPerSecond(_ engine: Engine, writers: Int, started: () -> Void = {}) throws -> Double {
        try measureUpdates(engine, writers: writers, started: started).rate
    }

    /// `rates` as "runs 118.2k, 121.0k, 123.8k".
    static func runsText(_ rates: [Double]) -> String {
        "runs " + rates.map { String(format: "%.1fk", $0 / 1000) }.joined(separator: ", ")
    }

    /// `updatesPerSecond`, with what the updates cost the process in CPU and context switches.
    /// `serverSeconds`, when given, reads a database server's CPU time so far (its processes'), which
    /// the process's own figures leave out.
    static func measureUpdates(_ engine: Engine, writers: Int, seconds: Double = secondsPerRun,
                               started: () -> Void = {}, serverSeconds: (() -> Double)? = nil) throws -> UpdateRun {
        for w in 0..<writers {
            for v in 0..<vehiclesPerWriter {
                _ = try engine.createVehicle(CreateVehicleRequest(parent: "providers/\(provider)", vehicleId: "w\(w)v\(v)",
                                                                  vehicle: vehicle(at: LatLng(latitude: 52.5, longitude: 13.4))))
            }
        }
        started()
        // Each writer counts on its own and reports once at the end: a counter shared by the writers
        // (a `Mutex`, a priority-inheritance futex on Linux) turned into a lock convoy on two cores
        // now and then, and the run measured the convoy instead of the engine.
        let counts = Mutex([(done: Int, failed: Int)](repeating: (0, 0), count: writers))
        // Updates in the first `warmUpSeconds` are not counted: a new file's log grows at first, which
        // costs more than the steady state (as in the store benchmark).
        let start = DispatchTime.now().uptimeNanoseconds + UInt64(warmUpSeconds * 1e9)
        let deadline = start + UInt64(seconds * 1e9)
        // One thread per writer (concurrentPerform would run only as many at once as there are cores,
        // and writers that wait for fsync are exactly what group commit needs more of than cores).
        let group = DispatchGroup()
        for w in 0..<writers {
            group.enter()
            WorkerThread.start(name: "bench-writer") {
                defer { group.leave() }
                var i = 0
                var done = 0
                var failed = 0
                while DispatchTime.now().uptimeNanoseconds < deadline {
                    let location = VehicleLocation(location: LatLng(latitude: 52.5 + Double(i % 1000) * 1e-5, longitude: 13.4))
                    do {
                        _ = try engine.updateVehicle(UpdateVehicleRequest(
                            name: "providers/\(provider)/vehicles/w\(w)v\(i % vehiclesPerWriter)",
                            vehicle: Vehicle(lastLocation: location), updateMask: ["lastLocation"]))
                        if DispatchTime.now().uptimeNanoseconds >= start { done += 1 }
                    } catch {
                        failed += 1
                    }
                    i += 1
                }
                counts.withLock { $0[w] = (done, failed) }
            }
        }
        // The process's CPU time and context switches from the end of the warm-up to the end.
        let now = DispatchTime.now().uptimeNanoseconds
        if now < start { usleep(UInt32((start - now) / 1000)) }
        let before = ProcessUsage.current()
        let serverBefore = serverSeconds?() ?? 0
        group.wait()
        let used = ProcessUsage.current().since(before)
        let serverUsed = (serverSeconds?() ?? 0) - serverBefore
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let (done, failed) = counts.withLock { ($0.map(\.done).reduce(0, +), $0.map(\.failed).reduce(0, +)) }
        if failed > 0 { throw BenchmarkFailure(message: "\(failed) updates failed") }
        let updates = Double(max(1, done))
        return UpdateRun(rate: Double(done) / elapsed, cpuMicroseconds: used.cpuSeconds / updates * 1e6,
                         switches: Double(used.switches) / updates, serverMicroseconds: serverUsed / updates * 1e6)
    }

    /// p50 and p99 of SearchVehicles (2 km radius, 10 results, ordered by pickup ETA) in a fleet of
    /// `vehicles` spread evenly over a 30 km × 30 km city.
    static func searchLatency(store: any Store, vehicles: Int) throws -> [BenchmarkRow] {
        let engine = Engine(store: store)
        var random = SeededRandom(seed: 42)
        let batch = 500
        var made = 0
        while made < vehicles {
            // Concurrent creates so the store's group commit batches them.
            let count = min(batch, vehicles - made)
            let base = made
            let failures = Mutex(0)
            let points = (0..<count).map { _ in LatLng(latitude: 52.38 + random.unit() * 0.27, longitude: 13.20 + random.unit() * 0.44) }
            DispatchQueue.concurrentPerform(iterations: 8) { part in
                for i in stride(from: part, to: count, by: 8) {
                    do {
                        _ = try engine.createVehicle(CreateVehicleRequest(parent: "providers/\(provider)", vehicleId: "s\(base + i)",
                                                                          vehicle: vehicle(at: points[i])))
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
            if failures.withLock({ $0 }) > 0 { throw BenchmarkFailure(message: "creating the fleet failed") }
            made += count
        }
        // Cold: a fresh engine (as after another process wrote every vehicle) decodes what it reads.
        var cold: [Double] = []
        let coldEngine = Engine(store: store)
        for _ in 0..<50 {
            let pickup = LatLng(latitude: 52.40 + random.unit() * 0.23, longitude: 13.25 + random.unit() * 0.34)
            let request = SearchVehiclesRequest(parent: "providers/\(provider)", pickupPoint: TerminalLocation(point: pickup),
                                                pickupRadiusMeters: 2000, count: 10, minimumCapacity: 1, tripTypes: [.exclusive],
                                                vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try coldEngine.searchVehicles(request)
            cold.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        cold.sort()
        var latencies: [Double] = []
        var matched = 0
        let searches = 400
        for _ in 0..<searches {
            let pickup = LatLng(latitude: 52.40 + random.unit() * 0.23, longitude: 13.25 + random.unit() * 0.34)
            let request = SearchVehiclesRequest(parent: "providers/\(provider)", pickupPoint: TerminalLocation(point: pickup),
                                                pickupRadiusMeters: 2000, count: 10, minimumCapacity: 1, tripTypes: [.exclusive],
                                                vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta)
            let start = DispatchTime.now().uptimeNanoseconds
            matched += try engine.searchVehicles(request).matches.count
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        latencies.sort()
        var indexOnly: [Double] = []
        for _ in 0..<100 {
            let pickup = IndexPoint(latitude: 52.40 + random.unit() * 0.23, longitude: 13.25 + random.unit() * 0.34)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try store.nearbyIndex(provider: provider, center: pickup, radiusMeters: 2000)
            indexOnly.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        indexOnly.sort()
        let p50 = latencies[latencies.count / 2], p99 = latencies[latencies.count * 99 / 100]
        let label = vehicles >= 1000 ? "\(vehicles / 1000)k" : "\(vehicles)"
        let aim = vehicles >= 100_000 ? "; aim p99 <= 5 ms" : ""
        return [
            BenchmarkRow(name: "SearchVehicles p50, \(label) vehicles (sqlite)", value: .milliseconds(p50),
                         comparison: "\(matched / searches) matches per search"),
            BenchmarkRow(name: "SearchVehicles p99, \(label) vehicles (sqlite)", value: .milliseconds(p99),
                         comparison: "\(Int(Double(vehicles) / 900 * 12.6)) vehicles within 2 km on average\(aim)"),
            BenchmarkRow(name: "  of which the store's index query, p50", value: .milliseconds(indexOnly[indexOnly.count / 2]),
                         comparison: "candidates in the grid cells meeting the radius' box"),
            BenchmarkRow(name: "SearchVehicles p50, \(label) vehicles, cold engine", value: .milliseconds(cold[cold.count / 2]),
                         comparison: "every candidate read and decoded (another process wrote them)"),
        ]
    }
}

/// The process's CPU time and context switches so far (`getrusage`, every thread).
struct ProcessUsage {
    var cpuSeconds: Double
    var switches: Int

    static func current() -> ProcessUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ProcessUsage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                            switches: usage.ru_nvcsw + usage.ru_nivcsw)
    }

    func since(_ earlier: ProcessUsage) -> ProcessUsage {
        ProcessUsage(cpuSeconds: cpuSeconds - earlier.cpuSeconds, switches: switches - earlier.switches)
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

