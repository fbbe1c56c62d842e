import FleetConcurrency
import FleetModel
import Foundation
import Glibc
import HTTPServer
import RESTClient
import Synchronization

/// A soak: mixed load on `fleet-admin serve` over durable SQLite for a while — location updates,
/// GetTrip, and `:watch` streams opened and closed in batches — with the server's resident memory,
/// open descriptors and threads read from /proc at start, after warm-up and once idle again. A
/// server that leaks grows after warm-up; one that does not levels off.
///
/// Each soak runs once per allocator setting: glibc's defaults, `MALLOC_ARENA_MAX=2` and
/// `glibc.malloc.mmap_threshold=16384`. Memory freed after a burst of connections stays with
/// glibc's heap under the first two; under the third a connection's buffers are mapped on their
/// own and go back to the system when it closes (docs/configuration.md, "Memory").
enum SoakBenchmarks {
    static let provider = "soak"
    static let trips = 200
    static let updaters = 2
    static let readers = 1
    static let watchCyclers = 2
    /// Streams each cycler opens, waits for the first event on, and closes, again and again (`--watch-batch`).
    static let defaultWatchBatch = 50

    /// How long the idle server may take, after the load, to close what the clients closed.
    static let settleSeconds = 30.0
    /// How long a cycler keeps its streams open once each has had its first event.
    static let watchHold = 0.5

    /// An allocator setting: the environment variables the server is started with.
    struct AllocatorSetting: Sendable {
        var name: String
        var environment: [String: String]

        static let glibcDefault = AllocatorSetting(name: "malloc defaults", environment: [:])
        static let twoArenas = AllocatorSetting(name: "MALLOC_ARENA_MAX=2", environment: ["MALLOC_ARENA_MAX": "2"])
        static let mappedBuffers = AllocatorSetting(name: "mmap_threshold=16384",
                                                    environment: ["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=16384"])
        /// `make bench` compares the default with the recommended setting; `fleet-bench soak` adds two arenas.
        static let short = [glibcDefault, mappedBuffers]
        static let all = [glibcDefault, twoArenas, mappedBuffers]
    }

    static func run(seconds: Double, watchBatch: Int = defaultWatchBatch, settings: [AllocatorSetting] = AllocatorSetting.all) -> [BenchmarkRow] {
        OpenFileLimit.raise(toAtLeast: 2 * watchCyclers * watchBatch + 256)
        return settings.flatMap { soak(seconds: seconds, watchBatch: watchBatch, allocator: $0) }
    }

    /// One soak of `seconds` (warm-up included: the first fifth, at least 5 s).
    static func soak(seconds: Double, watchBatch: Int, allocator: AllocatorSetting) -> [BenchmarkRow] {
        let label = "soak \(Int(seconds)) s\(watchBatch == defaultWatchBatch ? "" : ", \(watchBatch) streams a cycle"), \(allocator.name)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-soak-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server: BenchServer
        do { server = try BenchServer(folder: folder, environment: allocator.environment) } catch {
            return [BenchmarkRow(name: label, failed: "fleet-admin serve: \(error)")]
        }
        defer { server.stop() }
        let pid = server.process.processIdentifier
        guard let start = ProcessSample.read(pid) else {
            return [BenchmarkRow(name: label, failed: "cannot read /proc/\(pid)")]
        }

        let load = SoakLoad(watchBatch: watchBatch)
        do {
            let client = try RESTClient(baseURL: server.url)
            try setUp(client)
        } catch {
            return [BenchmarkRow(name: label, failed: "setting up \(trips) trips: \(error)")]
        }
        let group = DispatchGroup()
        for worker in 0..<updaters {
            group.enter()
            WorkerThread.start(name: "soak-updater") { load.updateVehicles(server: server, worker: worker); group.leave() }
        }
        for worker in 0..<readers {
            group.enter()
            WorkerThread.start(name: "soak-reader") { load.readTrips(server: server, worker: worker); group.leave() }
        }
        for worker in 0..<watchCyclers {
            group.enter()
            WorkerThread.start(name: "soak-watcher") { load.cycleWatches(server: server, worker: worker); group.leave() }
        }

        let began = Date()
        let warmUp = max(5, seconds / 5)
        var warm: ProcessSample?
        var peakRSS = start.rssKB
        var peakFiles = start.openFiles
        while Date().timeIntervalSince(began) < seconds && load.failure == nil {
            Thread.sleep(forTimeInterval: 0.5)
            guard let sample = ProcessSample.read(pid) else { break }
            peakRSS = max(peakRSS, sample.rssKB)
            peakFiles = max(peakFiles, sample.openFiles)
            if warm == nil && Date().timeIntervalSince(began) >= warmUp { warm = sample }
        }
        let elapsed = Date().timeIntervalSince(began)
        load.stop()
        group.wait()
        // Idle until the server has noticed every closed stream, so that what remains is what it
        // keeps, not connections still open: its descriptors are down to a few more than at start
        // (the store's reader connections) and have not changed for 2 s.
        let stopped = Date()
        var end = ProcessSample.read(pid)
        var steadySince = Date()
        while let sample = end, Date().timeIntervalSince(stopped) < settleSeconds {
            if sample.openFiles <= start.openFiles + 16 && Date().timeIntervalSince(steadySince) >= 2 { break }
            Thread.sleep(forTimeInterval: 0.5)
            end = ProcessSample.read(pid)
            if end?.openFiles != sample.openFiles { steadySince = Date() }
        }
        let settled = Date().timeIntervalSince(stopped)
        guard let end, let warm else {
            return [BenchmarkRow(name: label, failed: "the server went away (\(load.failure ?? "no error seen"))")]
        }
        if let failure = load.failure {
            return [BenchmarkRow(name: label, failed: failure)]
        }
        let growth = Double(end.rssKB - warm.rssKB) / Double(max(warm.rssKB, 1)) * 100
        func mb(_ kb: Int) -> String { String(format: "%.0f MB", Double(kb) / 1024) }
        let counts = load.counts
        return [
            BenchmarkRow(
                name: "\(label): server RSS at end",
                value: .megabytes(Double(end.rssKB) / 1024),
                comparison: "start \(mb(start.rssKB)), after \(Int(warmUp)) s warm-up \(mb(warm.rssKB)), peak \(mb(peakRSS)), "
                    + String(format: "end %.0f s after the load; %+.0f%% after warm-up; aim steady (<= +25%%)", settled, growth)),
            BenchmarkRow(
                name: "\(label): open files, threads",
                value: .fileDescriptors(end.openFiles),
                comparison: "start \(start.openFiles), after warm-up \(warm.openFiles), peak \(peakFiles); "
                    + "threads \(start.threads) / \(warm.threads) / \(end.threads); aim: back to start"),
            BenchmarkRow(
                name: "\(label): load",
                value: .perSecond(Double(counts.updates + counts.reads) / elapsed),
                comparison: "\(counts.updates) UpdateVehicle, \(counts.reads) GetTrip, \(counts.watchCycles) watch cycles "
                    + "(\(counts.watchCycles * watchBatch) streams opened and closed)"),
        ]
    }

    /// `trips` vehicles, each on a trip of its own.
    static func setUp(_ client: RESTClient) throws {
        let parent = "providers/\(provider)"
        for i in 0..<trips {
            _ = try client.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v\(i)", vehicle: Vehicle(
                vehicleState: .online, supportedTripTypes: [.exclusive],
                lastLocation: VehicleLocation(location: location(i, step: 0)),
                maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
            _ = try client.createTrip(CreateTripRequest(parent: parent, tripId: "t\(i)", trip: Trip(
                vehicleId: "v\(i)", tripType: .exclusive,
                pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)),
                dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.43)))))
        }
    }

    static func location(_ vehicle: Int, step: Int) -> LatLng {
        LatLng(latitude: 52.5 + Double(vehicle % 100) * 1e-4 + Double(step % 500) * 1e-5, longitude: 13.4 + Double(vehicle / 100) * 1e-4)
    }
}

/// The soak's workers: they run until `stop()` or the first failure, and count what they did.
final class SoakLoad: Sendable {
    struct Counts {
        var updates = 0
        var reads = 0
        var watchCycles = 0
    }

    let watchBatch: Int
    private let stopped = Atomic<Bool>(false)
    private let state = Mutex<(counts: Counts, failure: String?)>((Counts(), nil))

    init(watchBatch: Int) {
        self.watchBatch = watchBatch
    }

    var counts: Counts { state.withLock { $0.counts } }
    var failure: String? { state.withLock { $0.failure } }
    func stop() { stopped.store(true, ordering: .relaxed) }
    private var running: Bool { !stopped.load(ordering: .relaxed) && failure == nil }

    private func fail(_ message: String) {
        state.withLock { if $0.failure == nil { $0.failure = message } }
    }

    /// Location updates, vehicle after vehicle.
    func updateVehicles(server: BenchServer, worker: Int) {
        do {
            let client = try RESTClient(baseURL: server.url)
            var step = 1
            while running {
                for vehicle in stride(from: worker, to: SoakBenchmarks.trips, by: SoakBenchmarks.updaters) where running {
                    _ = try client.updateVehicle(UpdateVehicleRequest(
                        name: "providers/\(SoakBenchmarks.provider)/vehicles/v\(vehicle)",
                        vehicle: Vehicle(lastLocation: VehicleLocation(location: SoakBenchmarks.location(vehicle, step: step))),
                        updateMask: FieldMask(["lastLocation"])))
                    state.withLock { $0.counts.updates += 1 }
                }
                step += 1
            }
        } catch {
            fail("UpdateVehicle: \(error)")
        }
    }

    /// GetTrip, trip after trip.
    func readTrips(server: BenchServer, worker: Int) {
        do {
            let client = try RESTClient(baseURL: server.url)
            var trip = worker
            while running {
                _ = try client.getTrip(GetTripRequest(name: "providers/\(SoakBenchmarks.provider)/trips/t\(trip % SoakBenchmarks.trips)"))
                state.withLock { $0.counts.reads += 1 }
                trip += SoakBenchmarks.readers
            }
        } catch {
            fail("GetTrip: \(error)")
        }
    }

    /// Opens `watchBatch` streams on consecutive trips, waits for each one's first event, closes them all.
    func cycleWatches(server: BenchServer, worker: Int) {
        var first = worker * watchBatch
        while running {
            let targets = (0..<watchBatch).map {
                "/v1/providers/\(SoakBenchmarks.provider)/trips/t\((first + $0) % SoakBenchmarks.trips):watch"
            }
            do {
                let streams = try WatchStreams(port: server.port, targets: targets)
                let arrived = streams.waitForEvents(atLeast: Array(repeating: 1, count: targets.count), timeout: 30)
                Thread.sleep(forTimeInterval: SoakBenchmarks.watchHold)
                streams.close()
                guard arrived else {
                    fail("a :watch stream got no first event within 30 s")
                    return
                }
            } catch {
                fail(":watch: \(error)")
                return
            }
            state.withLock { $0.counts.watchCycles += 1 }
            first += watchBatch * SoakBenchmarks.watchCyclers
        }
    }
}

/// A process's resident memory, descriptors and threads, from /proc.
struct ProcessSample {
    var rssKB: Int
    var openFiles: Int
    var threads: Int

    static func read(_ pid: Int32) -> ProcessSample? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") }
        }
        guard let rss = field("VmRSS"), let threads = field("Threads") else { return nil }
        return ProcessSample(rssKB: rss, openFiles: descriptors.count, threads: threads)
    }
}
